import FileTreeInterface
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// `.minutafs/conflicts` (SPEC section 5): every value that lost, shown as the record files show values,
/// and every edit lost because another device deleted the record at the same time.
struct ConflictsFileTests {
    static let january = Month(year: 2024, month: 1)!
    static let plainRecord = "0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81"

    /// Copies the sample store to A and B, edits each, delivers B's January to A as a Dropbox conflict
    /// copy, merges it, and returns the text of A's `.minutafs/conflicts`.
    func conflictsAfterDiverging(_ editA: (Store) throws -> Void, _ editB: (Store) throws -> Void) throws -> String {
        try withTemporaryDirectory { folder in
            let a = try StoreFixture.copyOfAppStore(into: folder, name: "A")
            let b = try StoreFixture.copyOfAppStore(into: folder, name: "B")
            try editA(try Store(folder: FilePath(a), timeZone: .utc))
            try editB(try Store(folder: FilePath(b), timeZone: .utc))
            try FileManager.default.copyItem(atPath: b + "/records/2024/01.automerge", toPath: a + "/records/2024/01 (Bob's conflicted copy 2024-01-15).automerge")
            let store = try Store(folder: FilePath(a), timeZone: .utc)
            let merged = try store.mergeConflictCopies()
            #expect(merged.count == 1)
            let view = StoreView(store: try Store(folder: FilePath(a), timeZone: .utc))
            return String(decoding: try view.contents(ofPath: "/.minutafs/conflicts"), as: UTF8.self)
        }
    }

    func edit(_ store: Store, _ transform: (String) -> String) throws {
        let file = try #require(try store.recordFiles(in: Self.january).first { $0.id == Self.plainRecord })
        _ = try store.writeRecordFile(Array(transform(String(decoding: file.contents, as: UTF8.self)).utf8), named: file.name, in: Self.january)
    }

    @Test("two devices set endTime at once: both times are shown as the record file shows dates, not as typed JSON")
    func timesAsInRecordFiles() throws {
        let text = try conflictsAfterDiverging({ try self.edit($0) { $0.replacingOccurrences(of: "17:05:39.638Z", with: "18:00:00Z") } },
                                               { try self.edit($0) { $0.replacingOccurrences(of: "17:05:39.638Z", with: "19:30:00.250Z") } })
        let line = try #require(text.split(separator: "\n").first { $0.contains(Self.plainRecord) || $0.contains("endTime") }, "\(text)")
        #expect(line.contains("endTime: shows "), "\(line)")
        #expect(line.contains("\"2024-01-03T18:00:00Z\"") && line.contains("\"2024-01-03T19:30:00.250Z\""), "\(line)")
        #expect(!text.contains("_ts"), "\(text)")
    }

    @Test("an edit of a record another device deleted at the same time is listed as lost")
    func lostEditOfDeletedRecord() throws {
        let text = try conflictsAfterDiverging({ store in
            let file = try #require(try store.recordFiles(in: Self.january).first { $0.id == Self.plainRecord })
            try store.deleteRecordFile(named: file.name, in: Self.january)
        }, { try self.edit($0) { $0.replacingOccurrences(of: "an Jürgen", with: "an Jürgen und Ana") } })
        let line = try #require(text.split(separator: "\n").first { $0.contains(Self.plainRecord) }, "no line names the record: \(text)")
        #expect(line.hasPrefix("records/2024/01/\(Self.plainRecord): deleted"), "\(line)")
        #expect(line.contains("comment") && line.contains("lost"), "\(line)")
        #expect(!line.contains("endTime"), "only the comment was edited: \(line)")
    }
}
