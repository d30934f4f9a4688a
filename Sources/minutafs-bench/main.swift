// minutafs-bench: prints timings, never asserts them (see BENCHMARKS.md).
//
//   minutafs-bench load FILE N       load FILE N times in-process
//   minutafs-bench rootkeys FILE N   read the root map's keys of FILE N times without loading it
//   minutafs-bench save FILE N       load once, then save N times
//   minutafs-bench merge A B N       load A and B, then merge B into a copy of A N times
//   minutafs-bench edit FILE N       load once, then N times: change one record field, save
//   minutafs-bench generate RECORDS OUT   writes a generated month of RECORDS records (the `scaling` months)
//   minutafs-bench scaling           load/save/merge/edit of generated months of 100, 1,000, 10,000 records
//   minutafs-bench store DIR [YEARS] [RECORDS]   writes a generated store (default 10 years x 300 records a month)
//   minutafs-bench edits STORE N     N saves of one record through the store: latency after 100, 1,000, 10,000; memory
//   minutafs-bench creates STORE N   N records created in one month through the store: mean cost per 500
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

/// Writes a generated file; a file that cannot be written ends the run (exit 1) with its path.
func writeFile(_ bytes: [UInt8], _ path: String) {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        FileHandle.standardError.write(Data("minutafs-bench: cannot write \(path)\n".utf8))
        exit(1)
    }
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
case "edits" where arguments.count == 3:
    StoreSaveBenchmark.repeatedEdits(storePath: arguments[1], count: Int(arguments[2]) ?? 1_000)
case "creates" where arguments.count == 3:
    StoreSaveBenchmark.creates(storePath: arguments[1], count: Int(arguments[2]) ?? 3_000)
case "load" where arguments.count == 3:
    let bytes = readFile(arguments[1])
    printSamples(measure(Int(arguments[2]) ?? 10) { _ = load(bytes, arguments[1]) })
case "rootkeys" where arguments.count == 3:
    let bytes = readFile(arguments[1])
    printSamples(measure(Int(arguments[2]) ?? 10) {
        do { _ = try Document.rootKeysWritten(inFile: bytes) } catch {
            FileHandle.standardError.write(Data("minutafs-bench: \(arguments[1]): \(error)\n".utf8))
            exit(1)
        }
    })
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
case "diverge" where arguments.count == 3:
    // Another device's version of a month: the first record's endTime changed by a new actor.
    var document = load(readFile(arguments[1]), arguments[1]).fork(actor: ActorID(bytes: [UInt8](repeating: 0xB0, count: 16)))
    guard let record = firstRecord(document) else { exit(1) }
    try? document.put(.timestamp(1_234_567_890_123), forKey: "endTime", in: record)
    document.commit(time: 1_700_000_000)
    writeFile(document.save(), arguments[2])
case "generate" where arguments.count == 3:
    let count = Int(arguments[1]) ?? 1_000
    var generator = MonthGenerator(year: 2024, month: 3, seed: UInt64(count))
    guard var document = try? generator.document(records: count) else { exit(1) }
    writeFile(document.save(), arguments[2])
case "scaling":
    print("engine scaling on generated month documents, release build, median of runs (microseconds)")
    print("records   bytes     changes   load      save      merge     edit+save  load/record")
    for count in [100, 1_000, 10_000] {
        var generator = MonthGenerator(year: 2024, month: 3, seed: UInt64(count))
        guard var document = try? generator.document(records: count) else { exit(1) }
        let bytes = document.save()
        let runs = count >= 10_000 ? 5 : 20
        let loadTime = median(measure(runs) { _ = load(bytes, "generated") })
        let saveTime = median(measure(runs) { _ = document.save() })
        // Two replicas that diverged by 20 record edits each.
        var left = document.fork(actor: ActorID(bytes: [UInt8](repeating: 1, count: 16)))
        var right = document.fork(actor: ActorID(bytes: [UInt8](repeating: 2, count: 16)))
        let keys = document.keys(of: .root)
        for (index, key) in keys.prefix(20).enumerated() {
            if case .object(let record, _)? = left.value(of: .root, key: key) {
                try? left.put(.timestamp(Int64(index)), forKey: "endTime", in: record)
                left.commit(time: Int64(index))
            }
            if case .object(let record, _)? = right.value(of: .root, key: key) {
                try? right.put(.string("right \(index)"), forKey: "tagId", in: record)
                right.commit(time: Int64(index))
            }
        }
        let mergeTime = median(measure(runs) { var copy = left; try? copy.merge(right) })
        var edited = document
        guard let record = firstRecord(edited) else { exit(1) }
        var counter: Int64 = 0
        let editTime = median(measure(runs) {
            counter += 1
            try? edited.put(.timestamp(counter), forKey: "endTime", in: record)
            edited.commit(time: counter)
            _ = edited.save()
        })
        let columns = [count, bytes.count, document.changeCount, Int(loadTime), Int(saveTime), Int(mergeTime), Int(editTime)].map { String($0).padding(toLength: 10, withPad: " ", startingAt: 0) }
        print(columns.joined() + String(format: "%.1f", loadTime / Double(count)))
    }
case "store" where arguments.count >= 2:
    let folder = arguments[1]
    let years = arguments.count > 2 ? Int(arguments[2]) ?? 10 : 10
    let perMonth = arguments.count > 3 ? Int(arguments[3]) ?? 300 : 300
    let firstYear = 2016
    var tags = Document(actor: ActorID(bytes: [UInt8](repeating: 9, count: 16)))
    for (index, id) in MonthGenerator.tags.enumerated() {
        if let tag = try? tags.putObject(.map, forKey: id) {
            try? tags.put(.string("Tag \(index)"), forKey: "name", in: tag)
            try? tags.put(.string("#4A90D9"), forKey: "color", in: tag)
            try? tags.put(.timestamp(1_450_000_000_000 + Int64(index) * 1000), forKey: "createdAt", in: tag)
            try? tags.put(.boolean(false), forKey: "isArchived", in: tag)
        }
    }
    tags.commit(time: 1_450_000_000)
    try? FileManager.default.createDirectory(atPath: folder + "/records", withIntermediateDirectories: true)
    writeFile(tags.save(), folder + "/tags.automerge")
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0xFF, 0xD9]
    for year in firstYear..<(firstYear + years) {
        for month in 1...12 {
            var generator = MonthGenerator(year: year, month: month, seed: UInt64(year * 100 + month))
            guard var document = try? generator.document(records: perMonth) else { exit(1) }
            let monthName = month < 10 ? "0\(month)" : "\(month)"
            let yearFolder = folder + "/records/\(year)"
            try? FileManager.default.createDirectory(atPath: yearFolder + "/" + monthName, withIntermediateDirectories: true)
            writeFile(document.save(), yearFolder + "/" + monthName + ".automerge")
            for key in document.keys(of: .root) {
                guard case .object(let record, _)? = document.value(of: .root, key: key),
                      case .object(let images, .list)? = document.value(of: record, key: "images") else { continue }
                for values in document.elements(of: images) {
                    if case .scalar(.string(let name))? = values.last?.value {
                        writeFile(jpeg + Array(key.utf8), yearFolder + "/" + monthName + "/" + name)
                    }
                }
            }
        }
        print("wrote \(year)")
    }
default:
    let folder = arguments.first ?? "Tests/Fixtures/automerge"
    let runs = 30
    print("engine, release build, median of \(runs) runs (microseconds)")
    print("document".padding(toLength: 34, withPad: " ", startingAt: 0) + "bytes     load      save      merge-all merge(a+b)")
    for name in ["minuta-tags", "minuta-month", "types", "big-text", "large-month-1k", "large-month-5k", "three-way.merged"] {
        let path = folder + "/" + name + ".automerge"
        guard FileManager.default.fileExists(atPath: path) else { continue }
        let bytes = readFile(path)
        let loadTime = median(measure(runs) { _ = load(bytes, path) })
        var document = load(bytes, path)
        let saveTime = median(measure(runs) { _ = document.save() })
        // Every change merged into an empty document (the work of a first sync).
        let mergeAll = median(measure(runs) { var empty = Document(); try? empty.merge(document) })
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
              + String(Int(saveTime.rounded())).padding(toLength: 10, withPad: " ", startingAt: 0)
              + String(Int(mergeAll.rounded())).padding(toLength: 10, withPad: " ", startingAt: 0) + mergeText)
    }
}
