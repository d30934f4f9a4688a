import FileTreeInterface
import Foundation
@testable import MinutaStore
import Synchronization
import Testing
import TestSupport

/// History read while a save is under way: between the exchange of the document file and the month's
/// check-in, the file on disk is the new version while the store still holds the old one. The times
/// history takes then must be kept with the old version, or the present would show the past until the
/// file changed again.
struct HistoryDuringSavesTests {
    static let march = Month(year: 2024, month: 3)!

    @Test("the present in history shows a deletion once its save is done, even when read while the save's folder fsync was slow")
    func presentAfterASlowSave() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(path: path, timeZone: .utc)
            let tree = StoreView(store: store)
            let present = "/.minutafs/history/2999-01-01T00:00Z/records/2024/03"
            let deleted = try #require(try store.recordFiles(in: Self.march).first)
            #expect(try tree.entries(inDirectory: present).contains { $0.name == deleted.name })

            // The deletion's save waits a second in its folder fsync, after the new file is in place.
            FaultInjection.delay(.fsyncDirectory, milliseconds: 1000, under: path)
            defer { FaultInjection.clearDelay(.fsyncDirectory, under: path) }
            let done = Mutex<Result<Void, StoreError>?>(nil)
            let deleting = Thread {
                let outcome = Result { () throws(StoreError) in try store.deleteRecordFile(named: deleted.name, in: Self.march) }
                done.withLock { $0 = outcome }
            }
            deleting.start()
            // History is read throughout the save, as `ls` in a loop would.
            var readsDuringSave = 0
            while done.withLock({ $0 == nil }) {
                _ = try? tree.entries(inDirectory: present)
                readsDuringSave += 1
                Thread.sleep(forTimeInterval: 0.01)
            }
            try done.withLock { $0 }?.get()
            #expect(readsDuringSave > 10)
            #expect(try store.recordFiles(in: Self.march).contains { $0.id == deleted.id } == false)
            #expect(try tree.entries(inDirectory: present).contains { $0.name == deleted.name } == false,
                    "the present still shows the record deleted a moment ago")
        }
    }
}
