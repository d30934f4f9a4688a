import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// A file a program created new (`createsFile`: it was not there when it opened it) is saved as a record
/// of its own. If the name meanwhile shows another record (filed there by its start, or delivered), that
/// save must not overwrite a record its writer never saw: it is refused, and its bytes kept.
struct NewFileNameTakenTests {
    static let january = Month(year: 2024, month: 1)!
    static let other = #"{"startTime": "2024-01-21T08:00:00Z", "endTime": "2024-01-21T10:00:00Z", "comment": "filed first"}"#
    static let created = #"{"startTime": "2024-01-25T08:00:00Z", "endTime": "2024-01-25T10:00:00Z", "comment": "created new"}"#

    @Test("a new file without an id, at a name another record was filed under meanwhile: refused, the record unchanged, the bytes kept")
    func refusedOverAnotherRecord() throws {
        try withTemporaryDirectory { folder in
            let store = try Store(folder: FilePath(try StoreFixture.copyOfAppStore(into: folder)), timeZone: .utc)
            let filed = try store.writeRecordFile(Array(Self.other.utf8), named: "other.json", in: Self.january)
            #expect(filed.fileName == "2024-01-21_080000.json")
            let before = try #require(try store.recordFile(named: filed.fileName, in: Self.january)).contents
            #expect(throws: StoreError.self) {
                try store.writeRecordFile(Array(Self.created.utf8), named: filed.fileName, in: Self.january, createsFile: true)
            }
            #expect(try store.recordFile(named: filed.fileName, in: Self.january)?.contents == before)
            let rejected = store.rejectedFiles
            #expect(rejected.contains { $0.bytes == Array(Self.created.utf8) }, "\(rejected.map(\.name))")
            // Not created new (the writer opened the file that was there): an edit of that record, as before.
            let edit = try store.writeRecordFile(Array(Self.created.utf8), named: filed.fileName, in: Self.january)
            #expect(edit.id == filed.id && edit.changed)
        }
    }

    @Test("created new at a free name, or with the id of the record the name shows: saved")
    func savedOtherwise() throws {
        try withTemporaryDirectory { folder in
            let store = try Store(folder: FilePath(try StoreFixture.copyOfAppStore(into: folder)), timeZone: .utc)
            let fresh = try store.writeRecordFile(Array(Self.other.utf8), named: "fresh.json", in: Self.january, createsFile: true)
            #expect(fresh.changed && fresh.fileName == "2024-01-21_080000.json")
            let withID = Self.created.replacingOccurrences(of: "{", with: #"{"id": "\#(fresh.id)", "#)
            let again = try store.writeRecordFile(Array(withID.utf8), named: fresh.fileName, in: Self.january, createsFile: true)
            #expect(again.id == fresh.id && again.changed)
        }
    }
}
