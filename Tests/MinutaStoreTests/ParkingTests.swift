import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// A store keeps a bounded number of month documents decoded and parks the others (their saved bytes
/// and record files): nothing a parked month shows, takes or merges may differ from a loaded one.
@Suite("Parked month documents")
struct ParkingTests {
    /// Eighteen months, 2023-01 to 2024-06, one record each, written through a store; returns the ids.
    static func makeMonths(in folder: String) throws -> [(month: Month, id: String)] {
        let store = try Store(folder: FilePath(folder), timeZone: .utc)
        return try (0..<18).map { index in
            let month = try #require(Month(year: 2023 + index / 12, month: index % 12 + 1))
            let json = #"{"startTime": "\#(month.yearName)-\#(month.monthName)-05T10:00:00Z", "comment": "month \#(index)"}"#
            let outcome = try store.writeRecordFile(Array(json.utf8), named: "new.json", in: month)
            return (month, outcome.id)
        }
    }

    static func comment(_ store: Store, _ month: Month) throws -> String {
        let file = try #require(try store.recordFiles(in: month).first)
        return String(decoding: file.contents, as: UTF8.self)
    }

    @Test("every month reads the same after more months were read than stay loaded, and a parked one takes edits")
    func readsAndEdits() throws {
        try withTemporaryDirectory { folder in
            let months = try Self.makeMonths(in: folder)
            let store = try Store(folder: FilePath(folder), timeZone: .utc)
            let first = try months.map { try Self.comment(store, $0.month) }
            #expect(store.status().documentsLoaded < months.count)
            #expect(try months.map { try Self.comment(store, $0.month) } == first)
            #expect(first[0].contains(#""comment": "month 0""#))

            // The first month was parked long ago: an edit loads it again and is saved.
            let file = try #require(try store.recordFiles(in: months[0].month).first)
            let edited = first[0].replacingOccurrences(of: "month 0", with: "month zero")
            _ = try store.writeRecordFile(Array(edited.utf8), named: file.name, in: months[0].month)
            #expect(try Self.comment(store, months[0].month).contains("month zero"))
            #expect(try Self.comment(try Store(folder: FilePath(folder), timeZone: .utc), months[0].month).contains("month zero"))
        }
    }

    @Test("a parked month whose file a sync tool replaced is merged with what the store held")
    func replacedWhileParked() throws {
        try withTemporaryDirectory { folder in
            let a = folder + "/A"
            try FileManager.default.createDirectory(atPath: a, withIntermediateDirectories: true)
            let months = try Self.makeMonths(in: a)
            let january = months[0].month
            try FileManager.default.copyItem(atPath: a, toPath: folder + "/B")

            // A edits January, then reads every month, so January is parked.
            let store = try Store(folder: FilePath(a), timeZone: .utc)
            let name = try #require(try store.recordFiles(in: january).first?.name)
            let text = try Self.comment(store, january)
            _ = try store.writeRecordFile(Array(text.replacingOccurrences(of: "month 0", with: "edited in A").utf8), named: name, in: january)
            for (month, _) in months { _ = try store.recordFiles(in: month) }
            #expect(store.status().documentsLoaded < months.count)

            // B edits the end time; the sync tool puts B's file in place of A's.
            let other = try Store(folder: FilePath(folder + "/B"), timeZone: .utc)
            let otherText = try Self.comment(other, january)
            let withEnd = otherText.replacingOccurrences(of: #""images""#, with: #""endTime": "2023-01-05T11:00:00Z", "images""#)
            _ = try other.writeRecordFile(Array(withEnd.utf8), named: name, in: january)
            try FileManager.default.removeItem(atPath: a + "/" + january.documentPath)
            try FileManager.default.copyItem(atPath: folder + "/B/" + january.documentPath, toPath: a + "/" + january.documentPath)

            #expect(try store.synchronizeDocuments() == [january.documentPath])
            let merged = try Self.comment(store, january)
            #expect(merged.contains("edited in A") && merged.contains("2023-01-05T11:00:00Z"), "\(merged)")
            let onDisk = try Self.comment(try Store(folder: FilePath(a), timeZone: .utc), january)
            #expect(onDisk.contains("edited in A") && onDisk.contains("2023-01-05T11:00:00Z"), "\(onDisk)")
        }
    }
}
