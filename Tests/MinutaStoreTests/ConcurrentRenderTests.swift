import AutomergeKit
import Foundation
import MinutaStore
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// Renders without the state lock, each month under its own render lock, while saves and merges change
/// the same months: readers of fourteen months (more than a store keeps decoded, so months are parked,
/// decoded and rendered again all the time), two writers editing records of every month, and another
/// device whose records arrive in conflict copies that a synchronization pass merges (a change that
/// leaves the month's view to the next reader). A view rendered from a version a save or a merge
/// replaced must never be kept: at the end the store shows what a fresh store reads from the files,
/// every record its last comment, and every record of the other device.
struct ConcurrentRenderTests {
    static let months = (1...14).map { Month(year: 2023 + ($0 - 1) / 12, month: ($0 - 1) % 12 + 1)! }

    static func record(in month: Month, number: Int, comment: String) -> [UInt8] {
        let start = String(format: "%04d-%02d-%02dT%02d:00:00Z", month.year, month.month, 10 + number, 8 + number)
        return Array(#"{"startTime": "\#(start)", "endTime": null, "comment": "\#(comment)", "images": []}"#.utf8)
    }

    /// Records each month holds before the writers start.
    static let fillers = 100

    /// A time in `month` (UTC), in milliseconds since the epoch.
    static func milliseconds(day: Int, hour: Int, minute: Int, in month: Month) throws -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let date = try #require(calendar.date(from: DateComponents(year: month.year, month: month.month, day: day, hour: hour, minute: minute)))
        return Int64(date.timeIntervalSince1970 * 1000)
    }

    static func deviceID(_ round: Int, _ month: Month) -> String {
        String(format: "0D000000-0000-4000-8000-%04d%02d%06d", month.year, month.month, round)
    }

    /// The month's document as its file is now, with a record of the other device added, written
    /// beside it as that device's conflict copy.
    static func deliverDeviceRecord(round: Int, in month: Month, store path: String) throws {
        var document = try Document.load(try Fixtures.contents(ofFileAtPath: path + "/" + month.documentPath))
        document.setActor(ActorID.random())
        let record = try document.putObject(.map, forKey: deviceID(round, month))
        let start = try milliseconds(day: 20, hour: 6, minute: round, in: month)
        try document.put(.timestamp(start), forKey: "startTime", in: record)
        try document.put(.string("device \(round)"), forKey: "comment", in: record)
        let copy = path + "/" + month.folderPath + " (phone's conflicted copy 2026-11-28).automerge"
        try Data(document.save()).write(to: URL(fileURLWithPath: copy))
    }

    @Test("readers rendering every month while two writers save records of them all and another device's records are merged see, at the end, what the files hold")
    func rendersDuringSaves() throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/store"
            try FileManager.default.createDirectory(atPath: path + "/records", withIntermediateDirectories: true)
            // A hundred records a month already there (so a render takes a while), then three more each
            // writer edits; the names they are shown under, by month.
            for month in Self.months {
                var document = Document()
                for number in 0..<Self.fillers {
                    let record = try document.putObject(.map, forKey: String(format: "0F000000-0000-4000-8000-%04d%02d%06d", month.year, month.month, number))
                    let start = try Self.milliseconds(day: 1 + number % 9, hour: number % 24, minute: number / 24, in: month)
                    try document.put(.timestamp(start), forKey: "startTime", in: record)
                    try document.put(.string("filler \(number)"), forKey: "comment", in: record)
                }
                try FileManager.default.createDirectory(atPath: path + "/" + month.folderPath, withIntermediateDirectories: true)
                try Data(document.save()).write(to: URL(fileURLWithPath: path + "/" + month.documentPath))
            }
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            var names: [Month: [String]] = [:]
            for month in Self.months {
                for number in 0..<3 {
                    let outcome = try store.writeRecordFile(Self.record(in: month, number: number, comment: "first"), named: "new-\(number).json", in: month)
                    names[month, default: []].append(outcome.fileName)
                }
            }
            let shownNames = names
            let rounds = 8
            let failures = Mutex<[String]>([])
            let writing = Mutex(2)
            let delivered = Mutex<[(id: String, month: Month)]>([])
            let finished = Mutex(0)
            func writer(_ part: [Month]) -> Thread {
                Thread {
                    defer {
                        writing.withLock { $0 -= 1 }
                        finished.withLock { $0 += 1 }
                    }
                    for round in 0..<rounds {
                        for month in part {
                            for (number, name) in (shownNames[month] ?? []).enumerated() {
                                do throws(StoreError) {
                                    let bytes = Self.record(in: month, number: number, comment: "round \(round)")
                                    let outcome = try store.writeRecordFile(bytes, named: name, in: month)
                                    if outcome.fileName != name { failures.withLock { $0.append("\(name) is now \(outcome.fileName)") } }
                                } catch {
                                    failures.withLock { $0.append("saving \(month.folderPath)/\(name): \(error)") }
                                }
                            }
                        }
                    }
                }
            }
            func reader() -> Thread {
                Thread {
                    defer { finished.withLock { $0 += 1 } }
                    while writing.withLock({ $0 > 0 }) {
                        for month in Self.months {
                            do throws(StoreError) {
                                let files = try store.recordFiles(in: month)
                                if files.count < Self.fillers + 3 { failures.withLock { $0.append("\(month.folderPath) shows \(files.count) records") } }
                                for file in files where try store.recordFile(named: file.name, in: month) == nil {
                                    failures.withLock { $0.append("\(month.folderPath)/\(file.name) is listed but not found") }
                                }
                            } catch {
                                failures.withLock { $0.append("reading \(month.folderPath): \(error)") }
                            }
                        }
                    }
                }
            }
            let device = Thread {
                defer { finished.withLock { $0 += 1 } }
                for round in 0..<rounds {
                    for month in Self.months where month.month % 3 == round % 3 {
                        do {
                            try Self.deliverDeviceRecord(round: round, in: month, store: path)
                            _ = try store.mergeConflictCopies()
                            delivered.withLock { $0.append((Self.deviceID(round, month), month)) }
                        } catch {
                            failures.withLock { $0.append("delivering to \(month.folderPath): \(error)") }
                        }
                    }
                }
            }
            let threads = [writer(Array(Self.months.prefix(7))), writer(Array(Self.months.suffix(7))), reader(), reader(), device]
            for thread in threads { thread.start() }
            try #require(eventually(within: 300) { finished.withLock { $0 } == threads.count }, "a writer or reader did not finish")
            let failed = failures.withLock { $0 }
            let failureCount = failed.count
            #expect(failureCount == 0, "\(failed.prefix(5))")
            let fresh = try Store(folder: FilePath(path), timeZone: .utc)
            for month in Self.months {
                let shown = try store.recordFiles(in: month)
                let onDisk = try fresh.recordFiles(in: month)
                #expect(shown.map(\.name) == onDisk.map(\.name), "\(month.folderPath)")
                #expect(shown.map(\.contents) == onDisk.map(\.contents), "\(month.folderPath) shows other contents than its file holds")
                for file in shown where !file.id.hasPrefix("0D") && !file.id.hasPrefix("0F") {
                    #expect(String(decoding: file.contents, as: UTF8.self).contains("round \(rounds - 1)"), "\(month.folderPath)/\(file.name) lost its last comment")
                }
                let expected = delivered.withLock { $0 }.filter { $0.month == month }.map(\.id)
                #expect(Set(shown.map(\.id)).isSuperset(of: expected), "\(month.folderPath) lacks a record of the other device")
                #expect(shown.count == Self.fillers + 3 + expected.count)
            }
        }
    }
}
