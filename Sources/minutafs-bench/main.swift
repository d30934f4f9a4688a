// minutafs-bench: prints timings, never asserts them (see BENCHMARKS.md).
//
//   minutafs-bench load FILE N       load FILE N times in-process
//   minutafs-bench save FILE N       load once, then save N times
//   minutafs-bench merge A B N       load A and B, then merge B into a copy of A N times
//   minutafs-bench edit FILE N       load once, then N times: change one record field, save
//   minutafs-bench [FIXTURES_DIR]    the engine table over the reference fixtures
import AutomergeKit
import Foundation

func readFile(_ path: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("minutafs-bench: cannot read \(path)\n".utf8))
        exit(1)
    }
    return [UInt8](data)
}

func load(_ bytes: [UInt8], _ path: String) -> Document {
    do { return try Document.load(bytes) } catch {
        FileHandle.standardError.write(Data("minutafs-bench: \(path): \(error)\n".utf8))
        exit(1)
    }
}

/// Runs `body` `count` times (after one warm-up run) and returns each run's microseconds, sorted.
func measure(_ count: Int, _ body: () -> Void) -> [Double] {
    body()
    var samples: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<max(1, count) {
        let elapsed = clock.measure(body)
        samples.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
    }
    return samples.sorted()
}

func median(_ samples: [Double]) -> Double { samples[samples.count / 2] }
func percentile99(_ samples: [Double]) -> Double { samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))] }

func printSamples(_ samples: [Double]) {
    print("median_us \(Int(median(samples).rounded()))")
    print("min_us \(Int(samples[0].rounded()))")
    print("p99_us \(Int(percentile99(samples).rounded()))")
}

func firstRecord(_ document: Document) -> ObjectID? {
    for key in document.keys(of: .root) {
        if case .object(let id, .map)? = document.value(of: .root, key: key) { return id }
    }
    return nil
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "load" where arguments.count == 3:
    let bytes = readFile(arguments[1])
    printSamples(measure(Int(arguments[2]) ?? 10) { _ = load(bytes, arguments[1]) })
case "save" where arguments.count == 3:
    var document = load(readFile(arguments[1]), arguments[1])
    printSamples(measure(Int(arguments[2]) ?? 10) { _ = document.save() })
case "merge" where arguments.count == 4:
    let left = load(readFile(arguments[1]), arguments[1])
    let right = load(readFile(arguments[2]), arguments[2])
    printSamples(measure(Int(arguments[3]) ?? 10) {
        var copy = left
        try? copy.merge(right)
    })
case "edit" where arguments.count == 3:
    var document = load(readFile(arguments[1]), arguments[1])
    guard let record = firstRecord(document) else { print("no record map in \(arguments[1])"); exit(1) }
    var counter: Int64 = 0
    printSamples(measure(Int(arguments[2]) ?? 10) {
        counter += 1
        try? document.put(.timestamp(1_700_000_000_000 + counter), forKey: "endTime", in: record)
        document.commit(time: counter)
        _ = document.save()
    })
default:
    let folder = arguments.first ?? "../shared/fixtures/automerge"
    let runs = 30
    print("engine, release build, median of \(runs) runs (microseconds)")
    print("document".padding(toLength: 34, withPad: " ", startingAt: 0) + "bytes     load      save      merge(a+b)")
    for name in ["minuta-tags", "minuta-month", "types", "big-text", "large-month-1k", "large-month-5k", "three-way.merged"] {
        let path = folder + "/" + name + ".automerge"
        guard FileManager.default.fileExists(atPath: path) else { continue }
        let bytes = readFile(path)
        let loadTime = median(measure(runs) { _ = load(bytes, path) })
        var document = load(bytes, path)
        let saveTime = median(measure(runs) { _ = document.save() })
        var mergeText = "-"
        let base = String(name.dropLast(".merged".count))
        if name.hasSuffix(".merged"), FileManager.default.fileExists(atPath: folder + "/" + base + ".a.automerge") {
            let a = load(readFile(folder + "/" + base + ".a.automerge"), base)
            let b = load(readFile(folder + "/" + base + ".b.automerge"), base)
            mergeText = String(Int(median(measure(runs) { var copy = a; try? copy.merge(b) }).rounded()))
        }
        print(name.padding(toLength: 34, withPad: " ", startingAt: 0)
              + String(bytes.count).padding(toLength: 10, withPad: " ", startingAt: 0)
              + String(Int(loadTime.rounded())).padding(toLength: 10, withPad: " ", startingAt: 0)
              + String(Int(saveTime.rounded())).padding(toLength: 10, withPad: " ", startingAt: 0) + mergeText)
    }
}
