import Foundation
import MinutaStore
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// Saves, moves between months and synchronization passes while other threads read every month: the
/// writes run their file I/O with the state lock released (readers see a month as last saved until
/// it is checked in again), and nothing a reader does may lose or duplicate a record.
struct ConcurrentWriteReadTests {
    static let january = Month(year: 2024, month: 1)!
    static let february = Month(year: 2024, month: 2)!

    @Test("records created, edited and moved to another month while readers list and read every month end up once each, on disk too")
    func movesWhileReading() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let months = try store.months()
            let failures = Mutex<[String]>([])
            let created = Mutex<[String]>([])
            let writing = Mutex(true)
            // Threads that have returned: the assertions wait for all three, not for a time.
            let finished = Mutex(0)
            let writer = Thread {
                defer {
                    writing.withLock { $0 = false }
                    finished.withLock { $0 += 1 }
                }
                for round in 0..<12 {
                    do throws(StoreError) {
                        let day = 10 + round
                        let record = #"{"startTime": "2024-01-\#(day)T09:00:00Z", "endTime": null, "comment": "round \#(round)", "images": []}"#
                        let outcome = try store.writeRecordFile(Array(record.utf8), named: "new-\(round).json", in: Self.january)
                        created.withLock { $0.append(outcome.id) }
                        guard let file = try store.recordFile(named: outcome.fileName, in: Self.january) else {
                            failures.withLock { $0.append("round \(round): the new record is not shown") }
                            continue
                        }
                        let moved = String(decoding: file.contents, as: UTF8.self)
                            .replacingOccurrences(of: "2024-01-\(day)T09:00:00", with: "2024-02-\(day)T09:00:00")
                        let movedOutcome = try store.writeRecordFile(Array(moved.utf8), named: file.name, in: Self.january)
                        if movedOutcome.month != Self.february { failures.withLock { $0.append("round \(round): not moved") } }
                    } catch {
                        failures.withLock { $0.append("round \(round): \(error)") }
                    }
                }
            }
            let reader = Thread {
                defer { finished.withLock { $0 += 1 } }
                while writing.withLock({ $0 }) {
                    for month in months {
                        do throws(StoreError) {
                            for file in try store.recordFiles(in: month).prefix(3) {
                                _ = try store.recordFile(named: file.name, in: month)
                            }
                        } catch {
                            failures.withLock { $0.append("reading \(month.folderPath): \(error)") }
                        }
                    }
                }
            }
            let synchronizer = Thread {
                defer { finished.withLock { $0 += 1 } }
                while writing.withLock({ $0 }) {
                    do throws(StoreError) {
                        _ = try store.synchronizeDocuments()
                        _ = try store.mergeConflictCopies()
                        _ = try store.carryEditsToMovedRecords()
                    } catch {
                        failures.withLock { $0.append("synchronizing: \(error)") }
                    }
                    _ = store.noticeDeletedDocuments()
                }
            }
            writer.start()
            reader.start()
            synchronizer.start()
            try #require(eventually(within: 300) { finished.withLock { $0 } == 3 }, "the writer, reader or synchronizer did not finish")
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
            let ids = created.withLock { $0 }
            #expect(ids.count == 12)
            for shown in [store, try Store(folder: FilePath(path), timeZone: .utc)] {
                let january = try shown.recordFiles(in: Self.january).map(\.id)
                let february = try shown.recordFiles(in: Self.february).map(\.id)
                for id in ids {
                    #expect(!january.contains(id), "\(id) is still in January")
                    #expect(february.filter { $0 == id }.count == 1, "\(id) is in February \(february.filter { $0 == id }.count) times")
                }
            }
        }
    }

    @Test("two writers moving records across the same two months in opposite directions at once both finish, each record once where it went")
    func crossedMoves() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let failures = Mutex<[String]>([])
            let moved = Mutex<[(id: String, to: Month)]>([])
            let finished = Mutex(0)
            // Each round creates a record in `from` and moves it to `to` by its start: the move needs both
            // months' lanes while the other writer's move needs them too, the other way round.
            func writer(_ label: String, from: Month, to: Month) -> Thread {
                Thread {
                    defer { finished.withLock { $0 += 1 } }
                    for round in 0..<10 {
                        do throws(StoreError) {
                            let start = String(format: "2024-%02d-%02dT%02d:00:00Z", from.month, 10 + round, label == "a" ? 8 : 16)
                            let record = #"{"startTime": "\#(start)", "endTime": null, "comment": "\#(label) \#(round)", "images": []}"#
                            let outcome = try store.writeRecordFile(Array(record.utf8), named: "\(label)-\(round).json", in: from)
                            guard let file = try store.recordFile(named: outcome.fileName, in: from) else {
                                failures.withLock { $0.append("\(label) \(round): the new record is not shown") }
                                continue
                            }
                            let text = String(decoding: file.contents, as: UTF8.self)
                            let movedStart = String(format: "2024-%02d-", to.month)
                            let edited = text.replacingOccurrences(of: String(format: "2024-%02d-", from.month), with: movedStart)
                            let result = try store.writeRecordFile(Array(edited.utf8), named: file.name, in: from)
                            if result.month != to { failures.withLock { $0.append("\(label) \(round): not moved to \(to.folderPath)") } }
                            moved.withLock { $0.append((outcome.id, to)) }
                        } catch {
                            failures.withLock { $0.append("\(label) \(round): \(error)") }
                        }
                    }
                }
            }
            let first = writer("a", from: Self.january, to: Self.february)
            let second = writer("b", from: Self.february, to: Self.january)
            first.start()
            second.start()
            try #require(eventually(within: 300) { finished.withLock { $0 } == 2 }, "a writer did not finish: the crossed moves wait for each other")
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
            let records = moved.withLock { $0 }
            #expect(records.count == 20)
            for shown in [store, try Store(folder: FilePath(path), timeZone: .utc)] {
                let held = [Self.january: try shown.recordFiles(in: Self.january).map(\.id),
                            Self.february: try shown.recordFiles(in: Self.february).map(\.id)]
                for record in records {
                    let other = record.to == Self.january ? Self.february : Self.january
                    #expect(held[record.to]?.filter { $0 == record.id }.count == 1, "\(record.id) is not once in \(record.to.folderPath)")
                    #expect(held[other]?.contains(record.id) == false, "\(record.id) is still in \(other.folderPath)")
                }
            }
        }
    }
}
