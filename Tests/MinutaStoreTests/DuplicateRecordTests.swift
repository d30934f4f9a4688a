import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// A record in two month documents (its move synced in one, not yet in the other) is shown once, in
/// the month of its start in the store's zone; the other copy is listed in `.minutafs/status`.
struct DuplicateRecordTests {
    static let january = Month(year: 2024, month: 1)!
    static let february = Month(year: 2024, month: 2)!
    static let record = #"{"startTime": "2024-02-01T00:20:00+01:00", "endTime": "2024-02-01T01:20:00+01:00", "comment": "standup", "images": []}"#

    /// A store whose February document holds the record (start Jan 31 23:20 UTC) and whose January
    /// document holds a copy moved there (start Jan 31 23:20:01 UTC); returns its path and the id.
    func storeWithTwoCopies(in folder: String) throws -> (path: String, id: String) {
        let path = try StoreFixture.copyOfAppStore(into: folder)
        let phone = try Store(folder: FilePath(path), timeZone: StoreTimeZone(identifier: "Europe/Berlin")!)
        let id = try phone.writeRecordFile(Array(Self.record.utf8), named: "new.json", in: Self.february).id
        let februaryFile = path + "/records/2024/02.automerge"
        let februaryBefore = try Fixtures.contents(ofFileAtPath: februaryFile)
        let desktop = try Store(folder: FilePath(path), timeZone: .utc)
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
            let utc = try Store(folder: FilePath(path), timeZone: .utc)
            #expect(try count(id, in: utc) == [Self.january])
            let status = String(decoding: try StoreView(store: utc).contents(ofPath: "/.minutafs/status"), as: UTF8.self)
            #expect(status.contains("records in two documents: \(id) shown in records/2024/01, also in records/2024/02.automerge (not shown)"), "\(status)")

            // In Berlin both starts fall in February: the February copy is the one shown.
            let berlin = try Store(folder: FilePath(path), timeZone: StoreTimeZone(identifier: "Europe/Berlin")!)
            #expect(try count(id, in: berlin) == [Self.february])
            #expect(berlin.hiddenCopies.map(\.document) == ["records/2024/01.automerge"])
        }
    }

    @Test("a record the phone filed in the month after its start in the store's zone is shown where it is filed, without loading the other month")
    func filedByAnotherZoneWithoutDecodingTheOther() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let phone = try Store(folder: FilePath(path), timeZone: StoreTimeZone(identifier: "Europe/Berlin")!)
            let id = try phone.writeRecordFile(Array(Self.record.utf8), named: "new.json", in: Self.february).id
            // In UTC the record starts on January 31; January's document does not hold it, and the holder
            // index (built from the files' keys) says so: January is not decoded to find out.
            let utc = try Store(folder: FilePath(path), timeZone: .utc)
            utc.indexRecordHolders()
            #expect(utc.status().documentsLoaded == 0)
            #expect(try utc.recordFiles(in: Self.february).contains { $0.id == id && $0.name == "2024-01-31_232000.json" })
            #expect(utc.status().documentsLoaded == 1, "February alone is loaded")
            #expect(utc.hiddenCopies.isEmpty)
        }
    }

    static let march = Month(year: 2024, month: 3)!

    /// Another device moved a record from `from` to `to` by changing its start by a month; the new
    /// document arrived, the old one not yet. Both copies start in their own document's month.
    /// Returns the store's path and the record's id.
    func storeWithHalfDeliveredMove(in folder: String, from: Month, to: Month, start: String, movedStart: String) throws -> (path: String, id: String) {
        let path = try StoreFixture.copyOfAppStore(into: folder)
        // The phone's clock: its second change is stored a second after its first.
        let clock = TestClock()
        let phone = try Store(folder: FilePath(path), timeZone: .utc, clock: clock.now)
        let record = #"{"startTime": "\#(start)", "endTime": null, "comment": "moved by the phone", "images": []}"#
        let id = try phone.writeRecordFile(Array(record.utf8), named: "new.json", in: from).id
        let fromFile = path + "/" + from.documentPath
        let fromBefore = try Fixtures.contents(ofFileAtPath: fromFile)
        clock.advance()
        let file = try #require(try phone.recordFiles(in: from).first { $0.id == id })
        let moved = String(decoding: file.contents, as: UTF8.self).replacingOccurrences(of: start, with: movedStart)
        #expect(moved != String(decoding: file.contents, as: UTF8.self))
        #expect(try phone.writeRecordFile(Array(moved.utf8), named: file.name, in: from).month == to)
        // The old month's deletion has not arrived: its file is the version that still holds the record.
        try Data(fromBefore).write(to: URL(fileURLWithPath: fromFile))
        return (path, id)
    }

    func months(holding id: String, in store: Store, listing order: [Month]) throws -> [Month] {
        try order.filter { month in try store.recordFiles(in: month).contains { $0.id == id } }.sorted()
    }

    @Test("a record half moved to a later month by another device is shown once, at its new place, whichever month is listed first")
    func halfDeliveredMoveForward() throws {
        try withTemporaryDirectory { folder in
            let (path, id) = try storeWithHalfDeliveredMove(
                in: folder, from: Self.february, to: Self.march, start: "2024-02-10T09:00:00Z", movedStart: "2024-03-10T09:00:00Z")
            for order in [[Self.february, Self.march], [Self.march, Self.february]] {
                let store = try Store(folder: FilePath(path), timeZone: .utc)
                #expect(try months(holding: id, in: store, listing: order) == [Self.march], "listing \(order)")
                #expect(store.hiddenCopies.map { [$0.id, $0.document, $0.shownIn] } == [[id, Self.february.documentPath, Self.march.folderPath]])
            }
        }
    }

    @Test("a record half moved to an earlier month is shown at its new place too: the copy changed last wins, not the later month")
    func halfDeliveredMoveBackward() throws {
        try withTemporaryDirectory { folder in
            let (path, id) = try storeWithHalfDeliveredMove(
                in: folder, from: Self.march, to: Self.february, start: "2024-03-10T09:00:00Z", movedStart: "2024-02-10T09:00:00Z")
            for order in [[Self.february, Self.march], [Self.march, Self.february]] {
                let store = try Store(folder: FilePath(path), timeZone: .utc)
                #expect(try months(holding: id, in: store, listing: order) == [Self.february], "listing \(order)")
                let status = String(decoding: try StoreView(store: store).contents(ofPath: "/.minutafs/status"), as: UTF8.self)
                #expect(status.contains("records in two documents: \(id) shown in records/2024/02, also in records/2024/03.automerge (not shown)"), "\(status)")
            }
        }
    }

    @Test("when the old month's deletion arrives, the record is still shown once and nothing is listed as held twice")
    func deletionArrives() throws {
        try withTemporaryDirectory { folder in
            let (path, id) = try storeWithHalfDeliveredMove(
                in: folder, from: Self.february, to: Self.march, start: "2024-02-10T09:00:00Z", movedStart: "2024-03-10T09:00:00Z")
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            #expect(try months(holding: id, in: store, listing: [Self.february, Self.march]) == [Self.march])
            // The phone's version of February, without the record, replaces the file.
            var february = try Document.load(try Fixtures.contents(ofFileAtPath: path + "/" + Self.february.documentPath))
            try february.delete(forKey: id)
            february.commit()
            try Data(february.save()).write(to: URL(fileURLWithPath: path + "/" + Self.february.documentPath))
            let changed = try store.synchronizeDocuments()
            #expect(changed.contains(Self.february.documentPath))
            #expect(try months(holding: id, in: store, listing: [Self.february, Self.march]) == [Self.march])
            #expect(store.hiddenCopies.isEmpty)
        }
    }
}

