import AutomergeKit
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// The store's clock (`Store(clock:)`): the time of the changes it commits and of the names it gives
/// refused writes, set by a test instead of waited for.
struct StoreClockTests {
    static let january = Month(year: 2024, month: 1)!

    @Test("changes are committed and refused writes named at the store's clock's time")
    func changesAndRejectionsFollowTheClock() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let clock = TestClock(startingAt: 1_700_000_000)  // 2023-11-14T22:13:20Z
            let store = try Store(folder: FilePath(path), timeZone: .utc, clock: clock.now)
            let record = #"{"startTime": "2024-01-20T09:00:00Z", "endTime": null, "comment": "at a set time", "images": []}"#
            let id = try store.writeRecordFile(Array(record.utf8), named: "new.json", in: Self.january).id
            let document = try #require(try store.document(of: Self.january))
            let object = try #require(RecordView.object(id, in: document))
            #expect(document.lastChangeTime(of: object, comparable: { $0 }) == 1_700_000_000)
            clock.advance(by: 60)
            #expect(throws: StoreError.self) { try store.writeRecordFile(Array("{".utf8), named: "bad.json", in: Self.january) }
            #expect(store.rejectedFiles.map(\.name) == ["20231114-221420_records_2024_01_bad.json"])
        }
    }
}
