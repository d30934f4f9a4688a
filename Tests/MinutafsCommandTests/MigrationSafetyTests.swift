import Foundation
import Testing
import TestSupport

/// `minutafs migrate` never reports success while a value is wrong or a legacy file was left out:
/// failed and stopped runs, files outside the app's layout, conflict copies of
/// tags.json, integer dates, records in a year without a folder yet.
struct MigrationSafetyTests {
    static let work = "550E8400-E29B-41D4-A716-446655440000"
    static let recordID = "11111111-1111-4111-A111-111111111111"

    /// One record file's JSON.
    static func record(id: String = recordID, start: String = "\"2024-01-15T09:30:00Z\"", comment: String) -> String {
        "{\"id\": \"\(id)\", \"startTime\": \(start), \"endTime\": \"2024-01-15T10:30:00Z\", \"tagId\": \"\(work)\", \"comment\": \(LegacyStoreFixture.quoted(comment))}\n"
    }

    static func tags(_ entries: [(id: String, name: String)]) -> String {
        "{\"tags\": [" + entries.map { "{\"id\": \"\($0.id)\", \"name\": \"\($0.name)\", \"color\": \"#4A90D9\", \"createdAt\": \"2023-01-01T00:00:00Z\", \"isArchived\": false}" }
            .joined(separator: ", ") + "]}\n"
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A store with tags.json (the tag `work`) and the given record files.
    static func makeStore(_ store: String, records: [String: String]) throws {
        try write(tags([(work, "Work")]), to: store + "/tags.json")
        for (file, json) in records { try write(json, to: store + "/" + file) }
    }

    /// The comment of record `id` in an export of `store`.
    static func exportedComment(of id: String, in store: String, folder: String) throws -> String? {
        let exported = folder + "/export-" + UUID().uuidString
        let result = try MinutafsBinary.run(["export", store, exported, "--timezone", "UTC"])
        #expect(result.status == 0, "\(result.errorText)")
        return try LegacyStoreFixture.readRecords(in: exported)[id]?["comment"] as? String
    }

    @Test("item 1: after a failed run over two files with one id, the file the user keeps is what gets migrated, and --cleanup keeps its values")
    func keptFileWinsAfterFailedRun() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try Self.makeStore(store, records: ["records/2024/01/a.json": Self.record(comment: "first file"),
                                                "records/2024/01/b.json": Self.record(comment: "the one the user keeps")])
            let failed = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(failed.status == 1)
            #expect(failed.errorText.contains("keep one of the two files"), "\(failed.errorText)")

            try FileManager.default.removeItem(atPath: store + "/records/2024/01/a.json")
            let rerun = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC", "--cleanup"])
            #expect(rerun.status == 0, "\(rerun.errorText)")
            #expect(!rerun.errorText.contains("kept those"), "\(rerun.errorText)")
            #expect(try Self.exportedComment(of: Self.recordID, in: store, folder: folder) == "the one the user keeps")
        }
    }

    @Test("item 1: a record the old app edits between a failed run and the rerun is migrated with its new values")
    func editBetweenFailedRunAndRerun() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try Self.makeStore(store, records: ["records/2024/01/a.json": Self.record(comment: "before"),
                                                "records/2024/02/broken.json": "{\"id\": "])
            #expect(try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"]).status == 1)
            try Self.write(Self.record(comment: "edited in the app"), to: store + "/records/2024/01/a.json")
            try FileManager.default.removeItem(atPath: store + "/records/2024/02/broken.json")
            let rerun = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC", "--cleanup"])
            #expect(rerun.status == 0, "\(rerun.errorText)")
            #expect(rerun.outputText.contains("1 replaced"), "\(rerun.outputText)")
            #expect(try Self.exportedComment(of: Self.recordID, in: store, folder: folder) == "edited in the app")
        }
    }

    @Test("required: a migrated store whose legacy file differs from the documents fails verification, names the file, and --cleanup removes nothing")
    func verificationNamesDifferences() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try Self.makeStore(store, records: ["records/2024/01/a.json": Self.record(comment: "migrated")])
            #expect(try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"]).status == 0)
            try Self.write(Self.record(comment: "changed later"), to: store + "/records/2024/01/a.json")
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC", "--cleanup"])
            #expect(result.status == 1)
            #expect(!result.outputText.contains("verified"), "\(result.outputText)")
            #expect(result.errorText.contains("records/2024/01/a.json: record \(Self.recordID) has other values in records/2024/01.automerge"), "\(result.errorText)")
            #expect(result.errorText.contains("verification failed"), "\(result.errorText)")
            #expect(FileManager.default.fileExists(atPath: store + "/records/2024/01/a.json"))
            #expect(FileManager.default.fileExists(atPath: store + "/tags.json"))
        }
    }

    @Test("a store the mount accepts (no tags.json, no tags.automerge) keeps its documents' values: no rerun replaces them")
    func mountableStoreKeepsDocuments() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try Self.makeStore(store, records: ["records/2024/01/a.json": Self.record(comment: "in the document")])
            #expect(try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"]).status == 0)
            try FileManager.default.removeItem(atPath: store + "/tags.automerge")
            try FileManager.default.removeItem(atPath: store + "/tags.json")
            try Self.write(Self.record(comment: "in the legacy file"), to: store + "/records/2024/01/a.json")
            // No tags.json and no tags.automerge: the record's tag is in no tag, so --no-tags is needed.
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC", "--cleanup", "--no-tags"])
            #expect(result.status == 1)
            #expect(result.outputText.contains("1 already there with other values (kept)"), "\(result.outputText)")
            #expect(FileManager.default.fileExists(atPath: store + "/records/2024/01/a.json"))
            #expect(try Self.exportedComment(of: Self.recordID, in: store, folder: folder) == "in the document")
        }
    }

    @Test("item 2: .json files outside records/YYYY/MM/ are refused by name, backed up, and the run is not verified; .JSON is read")
    func filesOutsideTheLayout() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            let refused = ["records/2024/02 (1)/b.json", "records/2024 (1)/03/c.json", "records/2024/1/d.json",
                           "records/2024/01/sub/f.json", "records/g.json"]
            var files = ["records/2024/01/a.json": Self.record(comment: "a"),
                         "records/2024/01/e.JSON": Self.record(id: "22222222-2222-4222-A222-222222222222", comment: "upper-case extension")]
            for (index, file) in refused.enumerated() {
                files[file] = Self.record(id: "3333333\(index)-3333-4333-A333-333333333333", comment: file)
            }
            try Self.makeStore(store, records: files)
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC", "--cleanup"])
            #expect(result.status == 1)
            #expect(!result.outputText.contains("verified"), "\(result.outputText)")
            #expect(result.outputText.contains("2 added"), "\(result.outputText)")
            for file in refused {
                #expect(result.errorText.contains("\(store)/\(file): not in a records/YYYY/MM/ folder"), "\(file): \(result.errorText)")
                #expect(FileManager.default.fileExists(atPath: store + "/" + file), "\(file) removed")
            }
            #expect(!FileManager.default.fileExists(atPath: store + "/tags.automerge"))
            // Every legacy file is in the backup.
            let backups = try MigrateCommandTests.backups(of: store)
            #expect(backups.count == 1)
            let backup = try folderSnapshot(folder + "/" + (backups.first ?? ""))
            #expect(Set(backup.keys) == Set(files.keys).union(["tags.json"]))
        }
    }

    @Test("item 3: a tag only in a conflict copy of tags.json is migrated, and the copy is backed up and cleaned up")
    func tagsConflictCopy() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            let onlyInCopy = "44444444-4444-4444-A444-444444444444"
            try Self.makeStore(store, records: ["records/2024/01/a.json": Self.record(comment: "a")])
            let copy = "tags (Alice's conflicted copy 2024-01-15).json"
            try Self.write(Self.tags([(Self.work, "Work"), (onlyInCopy, "Only in the copy")]), to: store + "/" + copy)
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC", "--cleanup"])
            #expect(result.status == 0, "\(result.errorText)")
            #expect(result.outputText.contains("tags:      2 added"), "\(result.outputText)")
            #expect(!FileManager.default.fileExists(atPath: store + "/" + copy))
            let backups = try MigrateCommandTests.backups(of: store)
            #expect(try folderSnapshot(folder + "/" + (backups.first ?? "")).keys.contains(copy))
            let exported = folder + "/exported"
            #expect(try MinutafsBinary.run(["export", store, exported, "--timezone", "UTC"]).status == 0)
            #expect(try LegacyStoreFixture.readTags(in: exported)[onlyInCopy]?["name"] as? String == "Only in the copy")
        }
    }

    @Test("item 3: a tag with other values in a conflict copy of tags.json is refused, naming both files")
    func tagsConflictCopyDisagrees() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try Self.makeStore(store, records: ["records/2024/01/a.json": Self.record(comment: "a")])
            let copy = "tags (Bob's conflicted copy 2024-01-16).json"
            try Self.write(Self.tags([(Self.work, "Work renamed")]), to: store + "/" + copy)
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(result.status == 1)
            #expect(result.errorText.contains("\(store)/\(copy): tag \(Self.work) (Work renamed) is also in tags.json with different values"), "\(result.errorText)")
        }
    }

    @Test("item 4 and 12: integer dates that are seconds are refused naming file and field; a tag twice in tags.json is named as such")
    func secondsAreRefused() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try Self.makeStore(store, records: [
                "records/2024/01/since2001.json": Self.record(start: "727003800", comment: "seconds since 2001"),
                "records/2024/01/unix.json": Self.record(id: "55555555-5555-4555-A555-555555555555", start: "1705311000", comment: "Unix seconds"),
                "records/2024/01/ms.json": Self.record(id: "66666666-6666-4666-A666-666666666666", start: "1705311000000", comment: "milliseconds"),
            ])
            try Self.write(Self.tags([(Self.work, "Work"), (Self.work, "Work again")]), to: store + "/tags.json")
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(result.status == 1)
            #expect(result.errorText.contains("\(store)/records/2024/01/since2001.json: \"startTime\": 727003800 is not a plausible time in milliseconds"), "\(result.errorText)")
            #expect(result.errorText.contains("\(store)/records/2024/01/unix.json: \"startTime\": 1705311000 is not"), "\(result.errorText)")
            #expect(!result.errorText.contains("ms.json"), "\(result.errorText)")
            #expect(result.errorText.contains("\(store)/tags.json: tag \(Self.work) appears twice"), "\(result.errorText)")
            #expect(!result.errorText.contains("already in tags.automerge"), "\(result.errorText)")
            #expect(!FileManager.default.fileExists(atPath: store + "/records/1970"))
        }
    }

    @Test("item 6: a record starting in a year with no folder yet is migrated, with the store named by a relative path")
    func newYearFolder() throws {
        try withTemporaryDirectory { folder in
            let name = "MinutaRelative"
            try Self.makeStore(folder + "/" + name, records: [
                "records/2024/01/a.json": Self.record(start: "\"2019-05-05T08:00:00Z\"", comment: "filed in the wrong month")])
            let result = try MinutafsBinary.run(["migrate", name, "--timezone", "UTC"], in: folder)
            #expect(result.status == 0, "\(result.errorText)")
            #expect(FileManager.default.fileExists(atPath: folder + "/" + name + "/records/2019/05.automerge"))
        }
    }

    @Test("item 12: a failed run that writes no document says 0 written")
    func writtenCountIsTrue() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try Self.makeStore(store, records: ["records/2024/01/broken.json": "{"])
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(result.status == 1)
            #expect(result.outputText.contains("documents: 0 written"), "\(result.outputText)")
            #expect(try folderSnapshot(store, suffix: ".automerge").isEmpty)
        }
    }
}
