import Foundation
@testable import MinutaStore
import Synchronization
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

    @Test("reads of other months, held or loaded first, do not wait for a save whose folder fsync takes a second")
    func readsOfOtherMonthsDoNotWaitForASave() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(path: path, timeZone: .utc)
            let file = try #require(try store.recordFiles(in: Self.january).first)
            let held = try #require(try store.recordFiles(in: Self.august).first)
            let bytes = try Self.withComment("saved on a slow disk", file)
            FaultInjection.delay(.fsyncDirectory, milliseconds: 1000, under: path)
            defer { FaultInjection.clearDelay(.fsyncDirectory, under: path) }
            let saved = Mutex<Result<Store.WriteOutcome, StoreError>?>(nil)
            let saving = Thread {
                let outcome = Result { () throws(StoreError) -> Store.WriteOutcome in try store.writeRecordFile(bytes, named: file.name, in: Self.january) }
                saved.withLock { $0 = outcome }
            }
            saving.start()
            Thread.sleep(forTimeInterval: 0.2)  // the save is in its folder fsync (a second long) now
            let start = ContinuousClock.now
            let loaded = try store.recordFiles(in: Self.july)  // never read: decoded and rendered now
            let again = try store.recordFile(named: held.name, in: Self.august)  // held: its view published
            let elapsed = ContinuousClock.now - start
            let savedMeanwhile = saved.withLock { $0 != nil }
            #expect(!loaded.isEmpty)
            #expect(again?.contents == held.contents)
            #expect(!savedMeanwhile, "the save ended before the reads: they did not run during it")
            #expect(elapsed < .milliseconds(500), "reads of other months took \(elapsed) during a save of January")
            let deadline = Date().addingTimeInterval(30)
            while saved.withLock({ $0 == nil }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            #expect(try saved.withLock { $0 }?.get().changed == true)
            let after = try #require(try store.recordFile(named: file.name, in: Self.january))
            #expect(String(decoding: after.contents, as: UTF8.self).contains("saved on a slow disk"))
        }
    }
}
