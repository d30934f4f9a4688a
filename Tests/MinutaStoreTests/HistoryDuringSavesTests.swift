import FileTreeInterface
import Foundation
@testable import MinutaStore
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// History read while a save is under way: between the exchange of the document file and the month's
/// check-in, the file on disk is the new version while the store still holds the old one. The times
/// history takes then must be kept with the old version, or the present would show the past until the
/// file changed again.
struct HistoryDuringSavesTests {
    static let march = Month(year: 2024, month: 3)!

    @Test("the present in history shows a deletion once its save is done, even when read while the save was held in its folder fsync")
    func presentAfterASlowSave() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let faults = FaultInjection()
            let store = try Store(folder: FilePath(path), timeZone: .utc, faults: faults)
            let tree = StoreView(store: store)
            let present = "/.minutafs/history/2999-01-01T00:00Z/records/2024/03"
            let deleted = try #require(try store.recordFiles(in: Self.march).first)
            #expect(try tree.entries(inDirectory: present).contains { $0.name == deleted.name })

            // The deletion's save is held inside its folder fsync, after the new file is in place, until
            // history has been read meanwhile (no clock decides how long the save takes).
            let hold = faults.hold(.fsyncDirectory, under: FilePath(path))
            defer { hold.release() }
            let done = Mutex<Result<Void, StoreError>?>(nil)
            let deleting = Thread {
                let outcome = Result { () throws(StoreError) in try store.deleteRecordFile(named: deleted.name, in: Self.march) }
                done.withLock { $0 = outcome }
            }
            deleting.start()
            try #require(hold.waitUntilReached(), "the deletion never reached its folder fsync")
            // History is read during the save, as `ls` in a loop would.
            let readsDuringSave = Mutex<Int?>(nil)
            let reading = Thread {
                var count = 0
                for _ in 0..<20 where (try? tree.entries(inDirectory: present)) != nil { count += 1 }
                readsDuringSave.withLock { $0 = count }
            }
            reading.start()
            #expect(eventually(within: 60) { readsDuringSave.withLock { $0 != nil } }, "reading history waited for the save")
            #expect(readsDuringSave.withLock { $0 } == 20)
            #expect(done.withLock { $0 == nil }, "the save ended while held")
            hold.release()
            try #require(eventually(within: 60) { done.withLock { $0 != nil } }, "the deletion did not finish once released")
            try done.withLock { $0 }?.get()
            #expect(try store.recordFiles(in: Self.march).contains { $0.id == deleted.id } == false)
            #expect(try tree.entries(inDirectory: present).contains { $0.name == deleted.name } == false,
                    "the present still shows the record deleted a moment ago")
        }
    }
}
