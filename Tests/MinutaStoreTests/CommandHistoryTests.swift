import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// What `minutafs undo` reads of the history (SPEC 10): the records a command changed, found between
/// the heads of their document before and after it, each with its values then and now.
struct CommandHistoryTests {
    static let march = Month(year: 2024, month: 3)!
    static let record = "0144B87B-34CC-4DD9-AF76-D07C366E1C12"

    @Test("the records changed between two heads, with their values before, after and now; a later edit shows in now")
    func changedBetweenHeads() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let file = try #require(try store.recordFiles(in: Self.march).first { RecordID($0.id) == RecordID(Self.record) })
            let before = try store.headsText(of: Self.march)
            #expect(!before.isEmpty)
            // The "command": a changed comment and a new record.
            let commented = try Self.settingComment("by the command", in: file.contents)
            _ = try store.writeRecordFile(commented, named: file.name, in: Self.march)
            let created = try store.writeRecordFile(Array(#"{"startTime": "2024-03-30T09:00:00Z", "endTime": "2024-03-30T10:00:00Z", "comment": "new"}"#.utf8),
                                                    named: "new.json", in: Self.march)
            let after = try store.headsText(of: Self.march)
            // Another edit since: the comment again.
            _ = try store.writeRecordFile(try Self.settingComment("by the phone", in: commented), named: file.name, in: Self.march)

            let changes = try store.changedObjects(of: Self.march, from: before, to: after)
            #expect(Set(changes.map { RecordID($0.id) }) == [RecordID(Self.record), RecordID(created.id)], "\(changes.map(\.id))")
            let changed = try #require(changes.first { RecordID($0.id) == RecordID(Self.record) })
            #expect(changed.before?["comment"] != changed.after?["comment"])
            #expect(changed.after?["comment"] == .string("by the command"))
            #expect(changed.now?["comment"] == .string("by the phone") && !changed.isUnchangedSince)
            let new = try #require(changes.first { RecordID($0.id) == RecordID(created.id) })
            #expect(new.before == nil && new.after?["comment"] == .string("new") && new.isUnchangedSince)
            // Nothing changed between the same heads; heads the document does not have are refused.
            #expect(try store.changedObjects(of: Self.march, from: after, to: after).isEmpty)
            #expect(throws: StoreError.self) { try store.changedObjects(of: Self.march, from: [String(repeating: "ab", count: 32)], to: after) }
        }
    }

    @Test("a value another device wrote concurrently with the command, merged since, makes the record changed since, whichever value shows")
    func concurrentValueSince() throws {
        // Which of two concurrent values shows depends on the two random actor ids: tried until the
        // command's shows (the case that looks unchanged), at most 30 times (each half the time).
        var sawCommandsValueShown = false
        for attempt in 0..<30 where !sawCommandsValueShown {
            try withTemporaryDirectory { folder in
                let path = try StoreFixture.copyOfAppStore(into: folder)
                let otherPath = try StoreFixture.copyOfAppStore(into: folder, name: "other")
                let store = try Store(folder: FilePath(path), timeZone: .utc)
                let other = try Store(folder: FilePath(otherPath), timeZone: .utc)
                let file = try #require(try store.recordFiles(in: Self.march).first { RecordID($0.id) == RecordID(Self.record) })
                let before = try store.headsText(of: Self.march)
                _ = try store.writeRecordFile(try Self.settingComment("by the command", in: file.contents), named: file.name, in: Self.march)
                let after = try store.headsText(of: Self.march)
                // The other device's edit of the same field, made without seeing the command's, arrives as a conflict copy.
                _ = try other.writeRecordFile(try Self.settingComment("by the tablet", in: file.contents), named: file.name, in: Self.march)
                let copy = path + "/records/2024/03 (Tablet's conflicted copy 2024-03-31).automerge"
                try FileManager.default.copyItem(atPath: otherPath + "/records/2024/03.automerge", toPath: copy)
                guard case .merged? = try store.mergeConflictCopies().first?.outcome else { Issue.record("the copy was not merged"); return }

                let changed = try #require(try store.changedObjects(of: Self.march, from: before, to: after).first { RecordID($0.id) == RecordID(Self.record) })
                #expect(!changed.isUnchangedSince, "attempt \(attempt): \(String(describing: changed.now?["comment"]))")
                #expect(changed.gainedConcurrentValues == (changed.now == changed.after))
                sawCommandsValueShown = changed.now == changed.after
            }
        }
        #expect(sawCommandsValueShown)
    }

    /// The record's JSON with its comment set.
    static func settingComment(_ comment: String, in bytes: [UInt8]) throws -> [UInt8] {
        guard case .object(var members) = try JSONParser.parse(bytes) else { throw FixtureError("a record file that is not an object") }
        if let index = members.firstIndex(where: { $0.key == "comment" }) {
            members[index].value = .string(comment)
        } else {
            members.append((key: "comment", value: .string(comment)))
        }
        return JSONWriter.pretty(.object(members))
    }
}
