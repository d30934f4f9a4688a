import Foundation
@testable import MinutaStore
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// A save does its file I/O (the temporary file's fsync, the exchange, the folder's fsync) with the
/// store's state lock released: a reader of another month does not wait for the disk, whether that
/// month's view is held or its document must be loaded first.
struct ReadersDuringSavesTests {
    static let january = Month(year: 2024, month: 1)!
    static let july = Month(year: 2024, month: 7)!
    static let august = Month(year: 2024, month: 8)!

    /// `file`'s JSON with its comment replaced.
    static func withComment(_ comment: String, _ file: RecordFile) throws -> [UInt8] {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(file.contents)) as? [String: Any])
        object["comment"] = comment
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    @Test("reads of other months, held or loaded first, do not wait for a save held inside its folder fsync")
    func readsOfOtherMonthsDoNotWaitForASave() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let faults = FaultInjection()
            let store = try Store(folder: FilePath(path), timeZone: .utc, faults: faults)
            let file = try #require(try store.recordFiles(in: Self.january).first)
            let held = try #require(try store.recordFiles(in: Self.august).first)
            let bytes = try Self.withComment("saved on a slow disk", file)
            // The save's folder fsync does not return until the reads below are done: a read that
            // waited for the save would never finish (and the deadline below would say so).
            let hold = faults.hold(.fsyncDirectory, under: FilePath(path))
            defer { hold.release() }
            let saved = Mutex<Result<Store.WriteOutcome, StoreError>?>(nil)
            let saving = Thread {
                let outcome = Result { () throws(StoreError) -> Store.WriteOutcome in try store.writeRecordFile(bytes, named: file.name, in: Self.january) }
                saved.withLock { $0 = outcome }
            }
            saving.start()
            try #require(hold.waitUntilReached(), "the save never reached its folder fsync")
            let reads = Mutex<(loaded: [RecordFile], again: RecordFile?)?>(nil)
            let reading = Thread {
                let loaded = (try? store.recordFiles(in: Self.july)) ?? []  // never read: decoded and rendered now
                let again = try? store.recordFile(named: held.name, in: Self.august)  // held: its view published
                reads.withLock { $0 = (loaded, again ?? nil) }
            }
            reading.start()
            let readsDone = eventually(within: 60) { reads.withLock { $0 != nil } }
            #expect(readsDone, "reads of July and August waited for the save of January")
            #expect(saved.withLock { $0 == nil }, "the save ended while held")
            let result = reads.withLock { $0 }
            #expect(result?.loaded.isEmpty == false)
            #expect(result?.again?.contents == held.contents)
            hold.release()
            #expect(eventually(within: 60) { saved.withLock { $0 != nil } }, "the save did not finish once released")
            #expect(try saved.withLock { $0 }?.get().changed == true)
            let after = try #require(try store.recordFile(named: file.name, in: Self.january))
            #expect(String(decoding: after.contents, as: UTF8.self).contains("saved on a slow disk"))
        }
    }
}

/// Each month has its own write lane: a save of one month held inside its write does not hold up a save
/// of another month, while a second save of the held month waits its turn and then lands.
struct SavesOfDifferentMonthsTests {
    @Test("a save of August completes while a save of January is held; a second save of January waits for the first")
    func monthsSaveInParallel() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let faults = FaultInjection()
            let store = try Store(folder: FilePath(path), timeZone: .utc, faults: faults)
            let january = ReadersDuringSavesTests.january, august = ReadersDuringSavesTests.august
            let first = try #require(try store.recordFiles(in: january).first)
            let other = try #require(try store.recordFiles(in: august).first)
            // January's save stops just before its exchange, with its write lane held.
            let hold = faults.hold(.exchange, under: FilePath(path + "/" + january.documentPath))
            defer { hold.release() }
            let results = Mutex<[String: Result<Store.WriteOutcome, StoreError>]>([:])
            func save(_ label: String, _ comment: String, _ file: RecordFile, in month: Month) throws -> Thread {
                let bytes = try ReadersDuringSavesTests.withComment(comment, file)
                let thread = Thread {
                    let outcome = Result { () throws(StoreError) -> Store.WriteOutcome in try store.writeRecordFile(bytes, named: file.name, in: month) }
                    results.withLock { $0[label] = outcome }
                }
                thread.start()
                return thread
            }
            _ = try save("january 1", "first January save", first, in: january)
            try #require(hold.waitUntilReached(), "January's save never reached its exchange")
            _ = try save("august", "saved beside January", other, in: august)
            #expect(eventually(within: 60) { results.withLock { $0["august"] != nil } }, "August's save waited for January's")
            #expect(try results.withLock { $0["august"] }?.get().changed == true)
            _ = try save("january 2", "second January save", first, in: january)
            #expect(eventually(within: 60) { store.writeLaneWaitCount >= 1 }, "the second January save did not wait in the lane")
            #expect(results.withLock { $0["january 1"] == nil && $0["january 2"] == nil }, "a January save ended while the first was held")
            hold.release()
            #expect(eventually(within: 60) { results.withLock { $0.count == 3 } }, "the January saves did not finish once released")
            #expect(try results.withLock { $0["january 1"] }?.get().changed == true)
            #expect(try results.withLock { $0["january 2"] }?.get().changed == true)
            // In order: the second save is what the file shows, in this store and in a fresh one.
            let reopened = try Store(folder: FilePath(path), timeZone: .utc)
            for reader in [store, reopened] {
                let january = try #require(try reader.recordFiles(in: january).first { $0.id == first.id })
                #expect(String(decoding: january.contents, as: UTF8.self).contains("second January save"))
                let august = try #require(try reader.recordFiles(in: august).first { $0.id == other.id })
                #expect(String(decoding: august.contents, as: UTF8.self).contains("saved beside January"))
            }
        }
    }
}
