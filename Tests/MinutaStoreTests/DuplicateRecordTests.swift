import Foundation
import MinutaStore
import Testing
import TestSupport

/// A record in two month documents (its move synced in one, not yet in the other) is shown once, in
/// the month of its start in the store's zone; the other copy is listed in `.minutafs/status`
/// (issue 17, section 3).
struct DuplicateRecordTests {
    static let january = Month(year: 2024, month: 1)!
    static let february = Month(year: 2024, month: 2)!
    static let record = #"{"startTime": "2024-02-01T00:20:00+01:00", "endTime": "2024-02-01T01:20:00+01:00", "comment": "standup", "images": []}"#

    /// A store whose February document holds the record (start Jan 31 23:20 UTC) and whose January
    /// document holds a copy moved there (start Jan 31 23:20:01 UTC); returns its path and the id.
    func storeWithTwoCopies(in folder: String) throws -> (path: String, id: String) {
        let path = try StoreFixture.copyOfAppStore(into: folder)
        let phone = try Store(path: path, timeZone: StoreTimeZone(identifier: "Europe/Berlin")!)
        let id = try phone.writeRecordFile(Array(Self.record.utf8), named: "new.json", in: Self.february).id
        let februaryFile = path + "/records/2024/02.automerge"
        let februaryBefore = try Fixtures.contents(ofFileAtPath: februaryFile)
        let desktop = try Store(path: path, timeZone: .utc)
        let file = try #require(try desktop.recordFile(named: "2024-01-31_232000.json", in: Self.february))
        let moved = String(decoding: file.contents, as: UTF8.self).replacingOccurrences(of: "2024-01-31T23:20:00Z", with: "2024-01-31T23:20:01Z")
        #expect(try desktop.writeRecordFile(Array(moved.utf8), named: file.name, in: Self.february).month == Self.january)
        // February's deletion has not arrived yet: the file is the version that still holds the record.
        try Data(februaryBefore).write(to: URL(fileURLWithPath: februaryFile))
        return (path, id)
    }

    func count(_ id: String, in store: Store) throws -> [Month] {
        try [Self.january, Self.february].filter { month in try store.recordFiles(in: month).contains { $0.id == id } }
    }

    @Test("shown once, in the month of its start in the store's zone; the other copy listed in status")
    func shownOnce() throws {
        try withTemporaryDirectory { folder in
            let (path, id) = try storeWithTwoCopies(in: folder)
            let utc = try Store(path: path, timeZone: .utc)
            #expect(try count(id, in: utc) == [Self.january])
            let status = String(decoding: try StoreTree(store: utc).contents(ofPath: "/.minutafs/status"), as: UTF8.self)
            #expect(status.contains("records in two documents: \(id) shown in records/2024/01, also in records/2024/02.automerge (not shown)"), "\(status)")

            // In Berlin both starts fall in February: the February copy is the one shown.
            let berlin = try Store(path: path, timeZone: StoreTimeZone(identifier: "Europe/Berlin")!)
            #expect(try count(id, in: berlin) == [Self.february])
            #expect(berlin.hiddenCopies.map(\.document) == ["records/2024/01.automerge"])
        }
    }
}
