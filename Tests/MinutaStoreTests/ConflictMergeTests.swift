import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// Two copies of a store edited apart, brought together by a sync tool's conflict copy
/// (SPEC section 5): `minutafs merge` keeps both sides' edits and removes the copy.
struct ConflictMergeTests {
    static let january = Month(year: 2024, month: 1)!
    static let textRecord = "5C168E2E-6B8F-412B-9329-121D1C34395F"
    static let plainRecord = "0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81"

    /// Copies the store to A and B, edits each with its own store, copies B's January document
    /// into A under a Dropbox conflict name, merges A, and returns A's store and its January file text.
    func diverge(_ editA: (Store) throws -> Void, _ editB: (Store) throws -> Void) throws -> (Store, String) {
        try withTemporaryDirectory { folder in
            let a = try StoreFixture.copyOfAppStore(into: folder, name: "A")
            let b = try StoreFixture.copyOfAppStore(into: folder, name: "B")
            try editA(try Store(folder: FilePath(a), timeZone: .utc))
            try editB(try Store(folder: FilePath(b), timeZone: .utc))
            let copy = a + "/records/2024/01 (Bob's conflicted copy 2024-01-15).automerge"
            try FileManager.default.copyItem(atPath: b + "/records/2024/01.automerge", toPath: copy)
            let store = try Store(folder: FilePath(a), timeZone: .utc)
            let reports = try store.mergeConflictCopies()
            #expect(reports.count == 1)
            if case .merged = reports.first?.outcome {} else { Issue.record("not merged: \(reports)") }
            #expect(!FileManager.default.fileExists(atPath: copy))
            // What is on disk is what a fresh store shows.
            let fresh = try Store(folder: FilePath(a), timeZone: .utc)
            let files = try fresh.recordFiles(in: Self.january)
            return (fresh, files.map { String(decoding: $0.contents, as: UTF8.self) }.joined())
        }
    }

    func edit(_ store: Store, _ id: String, _ transform: (String) -> String) throws {
        let file = try #require(try store.recordFiles(in: Self.january).first { $0.id == id })
        _ = try store.writeRecordFile(Array(transform(String(decoding: file.contents, as: UTF8.self)).utf8), named: file.name, in: Self.january)
    }

    @Test("a comment edited in A and the endTime edited in B both survive")
    func differentFields() throws {
        let (_, text) = try diverge({ try self.edit($0, Self.plainRecord) { $0.replacingOccurrences(of: "an Jürgen", with: "an Jürgen und Ana") } },
                                    { try self.edit($0, Self.plainRecord) { $0.replacingOccurrences(of: "17:05:39.638Z", with: "18:00:00Z") } })
        #expect(text.contains("\"comment\": \"Rückmeldung an Jürgen und Ana\""))
        #expect(text.contains("\"endTime\": \"2024-01-03T18:00:00Z\""))
    }

    @Test("a text comment edited at both ends keeps both edits")
    func textBothEnds() throws {
        let (_, text) = try diverge({ try self.edit($0, Self.textRecord) { $0.replacingOccurrences(of: "\"Refactored", with: "\"Finally refactored") } },
                                    { try self.edit($0, Self.textRecord) { $0.replacingOccurrences(of: "edge cases\"", with: "edge cases!\"") } })
        #expect(text.contains("\"comment\": \"Finally refactored the export pipeline; next: tests for edge cases!\""))
    }

    @Test("images added on both sides are all kept")
    func imagesBothSides() throws {
        func add(_ name: String) -> (Store) throws -> Void {
            { store in try self.edit(store, Self.plainRecord) { $0.replacingOccurrences(of: "\"images\": []", with: "\"images\": [\"\(name)\"]") } }
        }
        let (_, text) = try diverge(add("0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81_1.jpg"), add("0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81_2.jpg"))
        #expect(text.contains("0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81_1.jpg") && text.contains("0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81_2.jpg"))
    }

    @Test("a record deleted on one side and edited on the other stays deleted")
    func deleteWins() throws {
        let (store, text) = try diverge({ store in
            let name = try #require(try store.recordFiles(in: Self.january).first { $0.id == Self.plainRecord }).name
            try store.deleteRecordFile(named: name, in: Self.january)
        }, { try self.edit($0, Self.plainRecord) { $0.replacingOccurrences(of: "17:05:39.638Z", with: "18:00:00Z") } })
        #expect(!text.contains(Self.plainRecord))
        #expect(try store.recordFiles(in: Self.january).count == 58)
    }

    @Test("a copy that cannot be loaded is quarantined, never deleted")
    func quarantine() throws {
        try withTemporaryDirectory { folder in
            let a = try StoreFixture.copyOfAppStore(into: folder, name: "A")
            let copy = a + "/records/2024/03 (1).automerge"
            try Data("not automerge".utf8).write(to: URL(fileURLWithPath: copy))
            let reports = try Store(folder: FilePath(a), timeZone: .utc).mergeConflictCopies()
            guard case .quarantined(_, let movedTo)? = reports.first?.outcome else { Issue.record("\(reports)"); return }
            #expect(!FileManager.default.fileExists(atPath: copy))
            #expect(FileManager.default.contents(atPath: a + "/" + movedTo) == Data("not automerge".utf8))
        }
    }

    @Test("an empty copy (a sync tool still delivering it) waits where it is: neither merged, deleted nor quarantined")
    func emptyCopyWaits() throws {
        try withTemporaryDirectory { folder in
            let a = try StoreFixture.copyOfAppStore(into: folder, name: "A")
            let copy = a + "/records/2024/03 (Bob's conflicted copy 2024-11-25).automerge"
            let primary = try Data(contentsOf: URL(fileURLWithPath: a + "/records/2024/03.automerge"))
            #expect(FileManager.default.createFile(atPath: copy, contents: Data()))
            let store = try Store(folder: FilePath(a), timeZone: .utc)
            let reports = try store.mergeConflictCopies()
            guard case .waiting(let reason)? = reports.first?.outcome else { Issue.record("\(reports)"); return }
            #expect(reason.contains("empty"))
            #expect(FileManager.default.fileExists(atPath: copy))
            #expect(!FileManager.default.fileExists(atPath: a + "/.minutafs-quarantine"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: a + "/records/2024/03.automerge")) == primary)
            // `check` names it as waiting for its bytes, not as one `merge` would take.
            let problems = store.check()
            #expect(problems.contains { $0.contains("03 (Bob's conflicted copy 2024-11-25).automerge") && $0.contains("waiting for its bytes") }, "\(problems)")
            // Once delivered, it is merged and removed as any copy is.
            try Data(contentsOf: URL(fileURLWithPath: a + "/records/2024/03.automerge")).write(to: URL(fileURLWithPath: copy))
            guard case .merged? = try store.mergeConflictCopies().first?.outcome else { Issue.record("not merged"); return }
            #expect(!FileManager.default.fileExists(atPath: copy))
        }
    }

    @Test("a primary replaced on disk is merged into what the store holds, not replacing it")
    func externalReplace() throws {
        try withTemporaryDirectory { folder in
            let a = try StoreFixture.copyOfAppStore(into: folder, name: "A")
            let b = try StoreFixture.copyOfAppStore(into: folder, name: "B")
            let store = try Store(folder: FilePath(a), timeZone: .utc)
            try edit(store, Self.plainRecord) { $0.replacingOccurrences(of: "an Jürgen", with: "an Ana") }
            try edit(try Store(folder: FilePath(b), timeZone: .utc), Self.plainRecord) { $0.replacingOccurrences(of: "17:05:39.638Z", with: "18:00:00Z") }
            // The sync tool replaces A's file with B's version.
            try FileManager.default.removeItem(atPath: a + "/records/2024/01.automerge")
            try FileManager.default.copyItem(atPath: b + "/records/2024/01.automerge", toPath: a + "/records/2024/01.automerge")
            #expect(try store.synchronizeDocuments() == ["records/2024/01.automerge"])
            let text = try store.recordFiles(in: Self.january).map { String(decoding: $0.contents, as: UTF8.self) }.joined()
            #expect(text.contains("Rückmeldung an Ana") && text.contains("2024-01-03T18:00:00Z"))
            // Our change was written back, so the file has both too.
            let fresh = try Store(folder: FilePath(a), timeZone: .utc).recordFiles(in: Self.january).map { String(decoding: $0.contents, as: UTF8.self) }.joined()
            #expect(fresh.contains("Rückmeldung an Ana") && fresh.contains("2024-01-03T18:00:00Z"))
        }
    }
}
