import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// Which month document a written record is kept in: the app files a record in
/// the month of its start in the phone's zone; a store in another zone must leave it there unless a
/// save really moves its start out of that month.
struct RecordFilingTests {
    static let january = Month(year: 2024, month: 1)!
    static let february = Month(year: 2024, month: 2)!
    static let berlin = StoreTimeZone(identifier: "Europe/Berlin")!
    /// Feb 1 00:20 in Berlin is Jan 31 23:20 UTC: a UTC store shows it as `2024-01-31_232000.json`.
    static let phoneRecord = #"{"startTime": "2024-02-01T00:20:00+01:00", "endTime": "2024-02-01T01:20:00+01:00", "comment": "standup", "images": []}"#
    static let utcName = "2024-01-31_232000.json"

    /// A copy of the sample store with the phone's record filed in February (by a Berlin store), and its id.
    func storeWithPhoneRecord(in folder: String) throws -> (path: String, id: String) {
        let path = try StoreFixture.copyOfAppStore(into: folder)
        let phone = try Store(folder: FilePath(path), timeZone: Self.berlin)
        let outcome = try phone.writeRecordFile(Array(Self.phoneRecord.utf8), named: "new.json", in: Self.february)
        #expect(outcome.month == Self.february && outcome.fileName == "2024-02-01_002000.json")
        return (path, outcome.id)
    }

    func bytes(_ path: String) -> [UInt8]? { try? Fixtures.contents(ofFileAtPath: path) }

    @Test("a save that changes nothing, or only the comment, keeps a record where the app filed it")
    func unchangedStartStays() throws {
        try withTemporaryDirectory { folder in
            let (path, id) = try storeWithPhoneRecord(in: folder)
            let januaryBefore = bytes(path + "/records/2024/01.automerge")
            let februaryBefore = bytes(path + "/records/2024/02.automerge")
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let file = try #require(try store.recordFile(named: Self.utcName, in: Self.february))
            #expect(file.id == id)

            let same = try store.writeRecordFile(file.contents, named: Self.utcName, in: Self.february)
            #expect(!same.changed && same.month == Self.february)
            let januaryKept = bytes(path + "/records/2024/01.automerge") == januaryBefore
            let februaryKept = bytes(path + "/records/2024/02.automerge") == februaryBefore
            #expect(januaryKept, "January's document was rewritten")
            #expect(februaryKept, "February's document was rewritten")

            let text = String(decoding: file.contents, as: UTF8.self).replacingOccurrences(of: "standup", with: "standup, notes")
            let comment = try store.writeRecordFile(Array(text.utf8), named: Self.utcName, in: Self.february)
            #expect(comment.changed && comment.month == Self.february && comment.touchedMonths == [Self.february])
            let januaryStillKept = bytes(path + "/records/2024/01.automerge") == januaryBefore
            #expect(januaryStillKept, "January's document was rewritten by a comment edit")
            let onDisk = try Document.load(try Fixtures.contents(ofFileAtPath: path + "/records/2024/02.automerge"))
            #expect(onDisk.value(of: .root, key: id) != nil)
        }
    }

    @Test("a new start inside the document's month keeps the record; one outside moves it")
    func changedStart() throws {
        try withTemporaryDirectory { folder in
            let (path, id) = try storeWithPhoneRecord(in: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let file = try #require(try store.recordFile(named: Self.utcName, in: Self.february))
            let original = String(decoding: file.contents, as: UTF8.self)
            let shownStart = "2024-01-31T23:20:00Z"
            #expect(original.contains(shownStart))

            // Still outside February in UTC, but changed: the record goes to January, where its start is.
            let earlier = try store.writeRecordFile(Array(original.replacingOccurrences(of: shownStart, with: "2024-01-31T23:00:00Z").utf8),
                                                    named: Self.utcName, in: Self.february)
            #expect(earlier.month == Self.january && earlier.fileName == "2024-01-31_230000.json")
            #expect(try store.recordFiles(in: Self.february).allSatisfy { $0.id != id })

            // Back to a February instant: moves again; then a change within February keeps it there.
            let moved = try #require(try store.recordFile(named: "2024-01-31_230000.json", in: Self.january))
            let back = String(decoding: moved.contents, as: UTF8.self).replacingOccurrences(of: "2024-01-31T23:00:00Z", with: "2024-02-10T08:00:00Z")
                .replacingOccurrences(of: "2024-02-01T00:20:00Z", with: "2024-02-10T09:00:00Z")
            let feb = try store.writeRecordFile(Array(back.utf8), named: "2024-01-31_230000.json", in: Self.january)
            #expect(feb.month == Self.february && feb.fileName == "2024-02-10_080000.json")
            let within = back.replacingOccurrences(of: "2024-02-10T08:00:00Z", with: "2024-02-10T07:00:00Z")
            let stays = try store.writeRecordFile(Array(within.utf8), named: "2024-02-10_080000.json", in: Self.february)
            #expect(stays.month == Self.february && stays.fileName == "2024-02-10_070000.json" && stays.touchedMonths == [Self.february])
        }
    }

    @Test("a new record written in another month's folder creates no empty document there")
    func noEmptyDocument() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let json = #"{"startTime": "2031-01-05T09:00:00Z", "endTime": "2031-01-05T10:00:00Z", "comment": "later", "images": []}"#
            let outcome = try store.writeRecordFile(Array(json.utf8), named: "new.json", in: try #require(Month(year: 2030, month: 5)))
            #expect(outcome.month == Month(year: 2031, month: 1) && outcome.fileName == "2031-01-05_090000.json")
            #expect(FileManager.default.fileExists(atPath: path + "/records/2031/01.automerge"))
            #expect(!FileManager.default.fileExists(atPath: path + "/records/2030/05.automerge"))
        }
    }
}
