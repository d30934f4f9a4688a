import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// A save is compared with what its writer read (SPEC 5b): a script read a record, another device's
/// change of one field was merged and shown (published), and the script saved its old content with
/// another field changed. The merged field keeps the other device's value, and the value not applied
/// is listed; a field the writer really changed to a third value keeps the writer's, and the merged
/// value is listed in `.minutafs/conflicts`. A writer that read after the merge was shown, or that
/// restores a snapshot, sets what it writes, even the value the merge replaced; one whose reads are
/// unknown too, and the merged value it replaced is listed.
@Suite struct StaleSaveTests {
    let january = Month(year: 2024, month: 1)!

    /// A record of January with an `endTime`, and its file as the mount shows it.
    func shownRecord(_ store: Store) throws -> RecordFile {
        try #require(try store.recordFiles(in: january).first { $0.id == BadInput.recordID })
    }

    /// Another device (a copy of the store) sets `field` of the record to `value` and its January
    /// document replaces the store's, as a sync tool delivers it.
    func otherDeviceSets(_ field: String, to value: String, store path: String, folder: String) throws {
        let device = try StoreFixture.copyOfAppStore(into: folder, name: "device-\(UUID().uuidString)")
        try Shell.run("cp '\(path)/records/2024/01.automerge' '\(device)/records/2024/01.automerge'")
        let other = try Store(folder: FilePath(device), timeZone: .utc)
        let file = try #require(try other.recordFiles(in: january).first { $0.id == BadInput.recordID })
        let edited = try Self.setting(field, to: value, in: StoreFixture.text(file.contents))
        _ = try other.writeRecordFile(Array(edited.utf8), named: file.name, in: january)
        // Written beside the store's file and renamed over it, as Dropbox and Syncthing do.
        try Shell.run("cp '\(device)/records/2024/01.automerge' '\(path)/records/2024/.incoming' && mv '\(path)/records/2024/.incoming' '\(path)/records/2024/01.automerge'")
    }

    /// The record's JSON with one string field set (added when absent).
    static func setting(_ field: String, to value: String, in json: String) throws -> String {
        let lines = json.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let index = lines.firstIndex(where: { $0.hasPrefix("  \"\(field)\": ") }) {
            var changed = lines
            let comma = lines[index].hasSuffix(",") ? "," : ""
            changed[index] = "  \"\(field)\": \"\(value)\"\(comma)"
            return changed.joined(separator: "\n")
        }
        return json.replacingOccurrences(of: "\n  \"images\"", with: "\n  \"\(field)\": \"\(value)\",\n  \"images\"")
    }

    static func field(_ name: String, of file: RecordFile) throws -> String? {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(file.contents)) as? [String: Any])
        return object[name] as? String
    }

    @Test("a script's save from a read made before a merge keeps the other device's endTime")
    func staleReadKeepsMergedField() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let read = try shownRecord(store)
            let readAt = ContinuousClock.now
            let readText = StoreFixture.text(read.contents)
            let readEnd = try #require(try Self.field("endTime", of: read))
            try otherDeviceSets("endTime", to: "2024-01-03T09:00:00Z", store: path, folder: folder)
            #expect(try store.synchronizeDocuments() == ["records/2024/01.automerge"])
            store.publishMerges()
            #expect(try Self.field("endTime", of: try shownRecord(store)) == "2024-01-03T09:00:00Z")

            // The script writes back what it read, with only the comment changed.
            let saved = try Self.setting("comment", to: "from the script", in: readText)
            _ = try store.writeRecordFile(Array(saved.utf8), named: read.name, in: january, reading: .at(readAt))
            let after = try shownRecord(store)
            #expect(try Self.field("endTime", of: after) == "2024-01-03T09:00:00Z", "the other device's endTime was reverted")
            #expect(try Self.field("comment", of: after) == "from the script")
            // Not applied, and said so: both values, and how to set it anyway.
            let conflicts = try store.conflictReport().joined()
            #expect(conflicts.contains("endTime") && conflicts.contains("not applied") && conflicts.contains("\"2024-01-03T09:00:00Z\"")
                && conflicts.contains("write it again to set \"\(readEnd)\"") && conflicts.contains("record \(BadInput.recordID)"), "\(conflicts)")
            // And on disk, for every device.
            let fresh = try Store(folder: FilePath(path), timeZone: .utc)
            #expect(try Self.field("endTime", of: try shownRecord(fresh)) == "2024-01-03T09:00:00Z")

            // Written again (the save counts as a read now): it is set.
            _ = try store.writeRecordFile(Array(saved.utf8), named: read.name, in: january, reading: .at(ContinuousClock.now))
            #expect(try Self.field("endTime", of: try shownRecord(store)) == readEnd)
        }
    }

    @Test("a writer that read after the merge was shown sets the value the merge replaced; so does a restore; an unknown reader too, and the merged value is listed",
          arguments: [WriterRead.restoring, .unknown, .at(.now + .seconds(3600))])
    func deliberateOldValueApplies(reading: WriterRead) throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let old = try shownRecord(store)
            let oldEnd = try #require(try Self.field("endTime", of: old))
            try otherDeviceSets("endTime", to: "2024-01-03T09:00:00Z", store: path, folder: folder)
            _ = try store.synchronizeDocuments()
            store.publishMerges()
            let merged = try shownRecord(store)
            #expect(try Self.field("endTime", of: merged) == "2024-01-03T09:00:00Z")
            // `.at` an instant after the publication: a fresh read (vim after `:e!`, `sed -i`, a script run now).
            let saved = try Self.setting("endTime", to: oldEnd, in: StoreFixture.text(merged.contents))
            _ = try store.writeRecordFile(Array(saved.utf8), named: merged.name, in: january, reading: reading)
            #expect(try Self.field("endTime", of: try shownRecord(store)) == oldEnd, "a deliberate save was dropped")
            let conflicts = try store.conflictReport().joined()
            if reading == .unknown {
                #expect(conflicts.contains("did not read the file through the mount") && conflicts.contains("2024-01-03T09:00:00Z"), "\(conflicts)")
            } else {
                #expect(conflicts.isEmpty, "\(conflicts)")
            }
        }
    }

    @Test("after an intermediate edit, the value the merge replaced can be set again")
    func intermediateEdit() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let oldEnd = try #require(try Self.field("endTime", of: try shownRecord(store)))
            try otherDeviceSets("endTime", to: "2024-01-03T09:00:00Z", store: path, folder: folder)
            _ = try store.synchronizeDocuments()
            store.publishMerges()
            for value in ["2024-01-03T09:01:00Z", oldEnd] {
                let shown = try shownRecord(store)
                let saved = try Self.setting("endTime", to: value, in: StoreFixture.text(shown.contents))
                _ = try store.writeRecordFile(Array(saved.utf8), named: shown.name, in: january, reading: .at(ContinuousClock.now))
                #expect(try Self.field("endTime", of: try shownRecord(store)) == value)
            }
            #expect(try store.conflictReport().isEmpty)
        }
    }

    @Test("a read after the merge but before the mount showed it is a read from before it")
    func unpublishedMergeIsUnseen() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let read = try shownRecord(store)
            try otherDeviceSets("endTime", to: "2024-01-03T09:00:00Z", store: path, folder: folder)
            _ = try store.synchronizeDocuments()
            // Not published: the kernel may still show the old pages to whoever opens now.
            let readAt = ContinuousClock.now
            let saved = try Self.setting("comment", to: "from the script", in: StoreFixture.text(read.contents))
            _ = try store.writeRecordFile(Array(saved.utf8), named: read.name, in: january, reading: .at(readAt))
            #expect(try Self.field("endTime", of: try shownRecord(store)) == "2024-01-03T09:00:00Z")
        }
    }

    @Test("a field the writer really changed where a merge changed it too: the writer's value wins, the merged one is listed")
    func realChangeWinsAndIsListed() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let read = try shownRecord(store)
            let readAt = ContinuousClock.now
            try otherDeviceSets("comment", to: "from the phone", store: path, folder: folder)
            _ = try store.synchronizeDocuments()
            store.publishMerges()
            let saved = try Self.setting("comment", to: "from the laptop", in: StoreFixture.text(read.contents))
            _ = try store.writeRecordFile(Array(saved.utf8), named: read.name, in: january, reading: .at(readAt))
            #expect(try Self.field("comment", of: try shownRecord(store)) == "from the laptop")
            let conflicts = try store.conflictReport().joined()
            #expect(conflicts.contains("comment") && conflicts.contains("from the phone") && conflicts.contains("from the laptop"), "\(conflicts)")
        }
    }

    @Test("a field the merge added, left out by a stale writer, stays; without a merge a save sets every field as written")
    func addedFieldStaysAndPlainSavesAreUnchanged() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let read = try shownRecord(store)
            let readAt = ContinuousClock.now
            let readText = StoreFixture.text(read.contents)
            let hadComment = try Self.field("comment", of: read)
            try otherDeviceSets("tagId", to: "7A0E1F4B-0000-4000-8000-000000000001", store: path, folder: folder)
            _ = try store.synchronizeDocuments()
            store.publishMerges()
            let saved = readText.replacingOccurrences(of: "\"startTime\"", with: "\"note\": \"x\",\n  \"startTime\"")
            _ = try store.writeRecordFile(Array(saved.utf8), named: read.name, in: january, reading: .at(readAt))
            let after = try shownRecord(store)
            #expect(try Self.field("tagId", of: after) == "7A0E1F4B-0000-4000-8000-000000000001")
            #expect(try Self.field("comment", of: after) == hadComment)

            // No merge touched another record: writing an older value there is an ordinary edit.
            let other = try #require(try store.recordFiles(in: january).first { $0.id == BadInput.otherRecordID })
            let changed = try Self.setting("comment", to: "first", in: StoreFixture.text(other.contents))
            _ = try store.writeRecordFile(Array(changed.utf8), named: other.name, in: january, reading: .at(readAt))
            _ = try store.writeRecordFile(other.contents, named: other.name, in: january, reading: .at(readAt))
            let back = try #require(try store.recordFiles(in: january).first { $0.id == BadInput.otherRecordID })
            #expect(back.contents == other.contents)
        }
    }
}

extension StaleSaveTests {
    @Test("tags.json from a read made before a merge: the other device's new tag and rename stay, the writer's change is made")
    func staleTagsSave() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let read = StoreFixture.text(try store.tagsFile())
            let readAt = ContinuousClock.now
            // Another device renames Yoga and adds a tag; its tags document replaces the store's.
            let device = try StoreFixture.copyOfAppStore(into: folder, name: "device")
            let other = try Store(folder: FilePath(device), timeZone: .utc)
            let renamed = StoreFixture.text(try other.tagsFile())
                .replacingOccurrences(of: "\"name\": \"Yoga\"", with: "\"name\": \"Stretching\"")
                .replacingOccurrences(of: "\"tags\": [", with: "\"tags\": [\n    {\"name\": \"Gardening\"},")
            _ = try other.writeTagsFile(Array(renamed.utf8))
            try Shell.run("cp '\(device)/tags.automerge' '\(path)/.incoming' && mv '\(path)/.incoming' '\(path)/tags.automerge'")
            #expect(try store.synchronizeDocuments() == ["tags.automerge"])
            store.publishMerges()
            // The script changes one tag's color in what it read and writes it all back.
            let saved = read.replacingOccurrences(of: "\"color\": \"#0A84FF\"", with: "\"color\": \"#000000\"")
            #expect(saved != read)
            _ = try store.writeTagsFile(Array(saved.utf8), reading: .at(readAt))
            let after = StoreFixture.text(try Store(folder: FilePath(path), timeZone: .utc).tagsFile())
            #expect(after.contains("\"Gardening\""), "the other device's new tag was deleted")
            #expect(after.contains("\"Stretching\"") && !after.contains("\"Yoga\""), "the other device's rename was reverted")
            #expect(after.contains("#000000"))
            let conflicts = try store.conflictReport().joined()
            #expect(conflicts.contains("left out by a save that read tags.json before") && conflicts.contains("\"Yoga\""), "\(conflicts)")

            // Saved again from a fresh read, without the new tag: now it is deleted, as written.
            let fresh = try #require(try JSONSerialization.jsonObject(with: Data(try store.tagsFile())) as? [String: [[String: Any]]])
            let withoutIt = try JSONSerialization.data(withJSONObject: ["tags": (fresh["tags"] ?? []).filter { $0["name"] as? String != "Gardening" }])
            _ = try store.writeTagsFile([UInt8](withoutIt), reading: .at(ContinuousClock.now))
            #expect(!StoreFixture.text(try store.tagsFile()).contains("\"Gardening\""))
        }
    }
}

/// Runs a shell command line; fails the test when it exits non-zero.
private enum Shell {
    static func run(_ command: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw FixtureError("\(command): exit \(process.terminationStatus)") }
    }
}
