import Foundation
import MinutaStore
import SystemPackage

/// Save cost and memory over a long-running store: what one more save costs after many,
/// and what the store holds after them. Prints numbers; asserts nothing.
enum StoreSaveBenchmark {
    /// Edits one record's comment `count` times through `Store.writeRecordFile`, printing the median
    /// save latency of each window of 100 saves ending at 100, 1,000, 10,000 ... saves, and the
    /// resident memory at the end beside that of a fresh store over the same folder.
    static func repeatedEdits(storePath: String, count: Int) {
        let store = open(storePath)
        guard let month = try? store.months().first, let file = try? store.recordFiles(in: month).first else {
            fail("no record in \(storePath)")
        }
        print("saves of one record in \(month.documentPath), median of the last 100 (microseconds)")
        print("saves     median_us  p99_us   cpu_us   file_bytes   (cpu: this process's user+system time per save, mean of the last 100)")
        var window: [Double] = []
        var cpuWindow: [Double] = []
        let clock = ContinuousClock()
        let checkpoints = Set([100, 1_000, 10_000, 20_000, 50_000])
        for index in 1...count {
            let text = String(decoding: file.contents, as: UTF8.self)
                .replacingOccurrences(of: "\"images\"", with: "\"comment\": \"edit \(index)\",\n  \"images\"")
            let bytes = stripComment(text, replacement: "edit \(index)")
            let cpuBefore = cpuMicroseconds()
            let elapsed = clock.measure {
                do { _ = try store.writeRecordFile(Array(bytes.utf8), named: file.name, in: month) } catch { fail("save \(index): \(error)") }
            }
            cpuWindow.append(cpuMicroseconds() - cpuBefore)
            if cpuWindow.count > 100 { cpuWindow.removeFirst() }
            window.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
            if window.count > 100 { window.removeFirst() }
            if checkpoints.contains(index) {
                let sorted = window.sorted()
                let size = (try? FileManager.default.attributesOfItem(atPath: storePath + "/" + month.documentPath)[.size] as? Int) ?? 0
                let cpu = Int(cpuWindow.reduce(0, +) / Double(cpuWindow.count))
                print(String(format: "%-9d %-10d %-8d %-8d %d", index, Int(sorted[sorted.count / 2]), Int(sorted[min(sorted.count - 1, 98)]), cpu, size))
            }
        }
        let live = residentKilobytes()
        let fresh = open(storePath)
        _ = try? fresh.recordFiles(in: month)
        print("resident memory after \(count) saves: \(live / 1024) MB (this process: the live store and a fresh one loaded after it: \(residentKilobytes() / 1024) MB)")
        withExtendedLifetime(store) {}
    }

    /// Creates `count` records in a month that has none, printing the mean cost per create of each
    /// window of 500 and the total.
    static func creates(storePath: String, count: Int) {
        let store = open(storePath)
        let month = Month(year: 2031, month: 3)!
        print("records created in \(month.documentPath), mean per create of each 500 (microseconds)")
        var window = 0.0
        var total = 0.0
        let clock = ContinuousClock()
        for index in 0..<count {
            let start = 1_930_000_000_000 + Int64(index) * 60_000
            let json = #"{"startTime": \#(start), "endTime": \#(start + 30_000), "comment": "record \#(index)", "images": []}"#
            let elapsed = clock.measure {
                do { _ = try store.writeRecordFile(Array(json.utf8), named: "new.json", in: month) } catch { fail("create \(index): \(error)") }
            }
            let micros = Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6
            window += micros
            total += micros
            if (index + 1) % 500 == 0 {
                print(String(format: "creates %5d-%5d  mean_us %d", index - 498, index + 1, Int(window / 500)))
                window = 0
            }
        }
        print(String(format: "%d creates in %.1f s", count, total / 1e6))
    }

    private static func stripComment(_ text: String, replacement: String) -> String {
        // The record file with exactly one comment line, set to `replacement`.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeAll { $0.hasPrefix("  \"comment\":") }
        if let images = lines.firstIndex(where: { $0.hasPrefix("  \"images\"") }) {
            lines.insert("  \"comment\": \"\(replacement)\",", at: images)
        }
        return lines.joined(separator: "\n")
    }

    private static func open(_ path: String) -> Store {
        do { return try Store(folder: FilePath(path), timeZone: .utc) } catch { fail("\(path): \(error)") }
    }

    /// User and system CPU time of this process so far, in microseconds.
    static func cpuMicroseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }

    static func residentKilobytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("minutafs-bench: \(message)\n".utf8))
        exit(1)
    }
}
