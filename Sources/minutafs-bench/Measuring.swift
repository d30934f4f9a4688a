import AutomergeKit
import Foundation

/// Reading, loading and writing the documents a benchmark works on, and timing its runs. A file
/// that cannot be read, loaded or written ends the run (exit 1) with one line naming it.
enum Measuring {
    static func readFile(_ path: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            StoreSaveBenchmark.fail("cannot read \(path)")
        }
        return [UInt8](data)
    }

    static func writeFile(_ bytes: [UInt8], _ path: String) {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            StoreSaveBenchmark.fail("cannot write \(path)")
        }
    }

    static func load(_ bytes: [UInt8], _ path: String) -> Document {
        do { return try Document.load(bytes) } catch {
            StoreSaveBenchmark.fail("\(path): \(error)")
        }
    }

    /// The document's full save; a refused save (times a document chunk cannot hold) ends the benchmark.
    static func save(_ document: inout Document) -> [UInt8] {
        do { return try document.save() } catch {
            StoreSaveBenchmark.fail("save: \(error)")
        }
    }

    /// Runs `body` `count` times (after one warm-up run) and returns each run's microseconds, sorted.
    static func measure(_ count: Int, _ body: () -> Void) -> [Double] {
        body()
        var samples: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<max(1, count) {
            let elapsed = clock.measure(body)
            samples.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
        }
        return samples.sorted()
    }

    static func median(_ samples: [Double]) -> Double { samples[samples.count / 2] }
    static func percentile99(_ samples: [Double]) -> Double { samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))] }

    static func printSamples(_ samples: [Double]) {
        print("median_us \(Int(median(samples).rounded()))")
        print("min_us \(Int(samples[0].rounded()))")
        print("p99_us \(Int(percentile99(samples).rounded()))")
    }

    /// The first record map at the root of a month document.
    static func firstRecord(_ document: Document) -> ObjectID? {
        for key in document.keys(of: .root) {
            if case .object(let id, .map)? = document.value(of: .root, key: key) { return id }
        }
        return nil
    }
}
