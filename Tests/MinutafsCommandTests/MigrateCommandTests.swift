import Foundation
import Testing
import TestSupport

/// `minutafs migrate` and `minutafs export` (SPEC §1 and §6, seed 003): a legacy JSON store to
/// documents and back.
struct MigrateCommandTests {

    static func backups(of store: String) throws -> [String] {
        let parent = (store as NSString).deletingLastPathComponent
        let name = (store as NSString).lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: parent).filter { $0.hasPrefix(name + ".backup-") }.sorted()
    }

    /// Checks the exported legacy store in `folder` against the fixture, record by record.
    static func expectSame(_ fixture: LegacyStoreFixture, asExportIn folder: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let tags = try LegacyStoreFixture.readTags(in: folder)
        #expect(tags.count == fixture.tags.count, sourceLocation: sourceLocation)
        for tag in fixture.tags {
            let exported = try #require(tags[tag.id.uppercased()], "tag \(tag.name) missing", sourceLocation: sourceLocation)
            #expect(exported["name"] as? String == tag.name, sourceLocation: sourceLocation)
            #expect(exported["color"] as? String == tag.color, sourceLocation: sourceLocation)
            #expect(LegacyStoreFixture.milliseconds(exported["createdAt"]) == tag.createdAt, sourceLocation: sourceLocation)
            #expect(exported["isArchived"] as? Bool == tag.isArchived, sourceLocation: sourceLocation)
        }
        let records = try LegacyStoreFixture.readRecords(in: folder)
        #expect(records.count == fixture.records.count, sourceLocation: sourceLocation)
        for record in fixture.records {
            let exported = try #require(records[record.id.uppercased()], "record \(record.file) missing", sourceLocation: sourceLocation)
            #expect(LegacyStoreFixture.milliseconds(exported["startTime"]) == record.startTime, "\(record.file)", sourceLocation: sourceLocation)
            #expect(LegacyStoreFixture.milliseconds(exported["endTime"]) == record.endTime, "\(record.file)", sourceLocation: sourceLocation)
            #expect((exported["endTime"] == nil) == (record.endTime == nil), "\(record.file)", sourceLocation: sourceLocation)
            #expect((exported["tagId"] as? String)?.uppercased() == record.tagId?.uppercased(), "\(record.file)", sourceLocation: sourceLocation)
            #expect(exported["comment"] as? String == record.comment, "\(record.file)", sourceLocation: sourceLocation)
            #expect(exported["images"] as? [String] == record.images, "\(record.file)", sourceLocation: sourceLocation)
            let file = try #require(exported["_file"] as? String)
            for image in record.images {
                #expect(FileManager.default.fileExists(atPath: folder + "/" + (file as NSString).deletingLastPathComponent + "/" + image),
                        "\(image) not beside \(file)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("migrate converts tags and records across years and months, keeps running timers, images and a backup; export gives them back")
    func migrateAndExport() throws {
        try withTemporaryDirectory { folder in
            let fixture = LegacyStoreFixture.standard()
            let store = folder + "/Minuta"
            try fixture.write(to: store)
            let legacy = try folderSnapshot(store)

            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(result.status == 0, "\(result.errorText)")
            #expect(result.outputText.contains("3 added"), "\(result.outputText)")
            #expect(result.outputText.contains("\(fixture.records.count) added"), "\(result.outputText)")
            #expect(result.outputText.contains("2 running timers"), "\(result.outputText)")
            #expect(result.outputText.contains("verified"), "\(result.outputText)")

            // The documents, each record in the month of its start in UTC.
            let documents = try folderSnapshot(store, suffix: ".automerge")
            #expect(Set(documents.keys).isSuperset(of: ["tags.automerge", "records/2023/12.automerge", "records/2024/01.automerge",
                                                        "records/2024/03.automerge", "records/2025/03.automerge"]))
            // The record filed in April's folder starts on 31 March (UTC): it is in March's document, not April's.
            let misfiledID = try #require(fixture.records.first { $0.comment == "Filed in April" }?.id)
            let march = try MinutafsBinary.run(["inspect", store + "/records/2024/03.automerge"])
            #expect(march.status == 0 && march.outputText.contains("\"\(misfiledID)\""), "\(march.outputText)")
            let april = try MinutafsBinary.run(["inspect", store + "/records/2024/04.automerge"])
            #expect(april.status == 0 && !april.outputText.contains(misfiledID), "\(april.outputText)")
            // The legacy files and images are untouched; the misfiled record's image was copied to March.
            let after = try folderSnapshot(store)
            for (path, bytes) in legacy { #expect(after[path] == bytes, "\(path) changed") }
            let misfiled = try #require(fixture.images.first { $0.path.hasPrefix("records/2024/04/") })
            let copied = "records/2024/03/" + (misfiled.path as NSString).lastPathComponent
            #expect(after[copied] == misfiled.bytes)

            // A backup of the legacy JSON beside the store, not inside it.
            let backups = try Self.backups(of: store)
            #expect(backups.count == 1)
            let backup = try folderSnapshot(folder + "/" + (backups.first ?? ""))
            // The whole legacy layout: every JSON file and every image.
            #expect(backup.count == fixture.records.count + 1 + fixture.images.count)
            #expect(Set(backup.keys) == Set(legacy.keys))
            for (path, bytes) in backup { #expect(legacy[path] == bytes, "backup of \(path) differs") }
            #expect(!(try FileManager.default.contentsOfDirectory(atPath: store)).contains { $0.contains("backup") })

            // The store is whole: check finds nothing wrong.
            let check = try MinutafsBinary.run(["check", store])
            #expect(check.status == 0, "\(check.outputText)\(check.errorText)")

            // Export gives every tag and record back with the same values.
            let exported = folder + "/exported"
            let export = try MinutafsBinary.run(["export", store, exported, "--timezone", "UTC"])
            #expect(export.status == 0, "\(export.errorText)")
            #expect(export.outputText.contains("\(fixture.records.count) records"), "\(export.outputText)")
            try Self.expectSame(fixture, asExportIn: exported)

            // Migrating the export and exporting again gives the same files, byte for byte.
            let again = try MinutafsBinary.run(["migrate", exported, "--timezone", "UTC"])
            #expect(again.status == 0, "\(again.errorText)")
            let second = folder + "/exported-again"
            #expect(try MinutafsBinary.run(["export", exported, second, "--timezone", "UTC"]).status == 0)
            let first = try folderSnapshot(exported).filter { !$0.key.hasSuffix(".automerge") }
            #expect(try folderSnapshot(second) == first)
        }
    }

    @Test("running migrate a second time changes nothing: same document bytes, no new backup")
    func idempotent() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try LegacyStoreFixture.standard().write(to: store)
            #expect(try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"]).status == 0)
            let before = try folderSnapshot(store)
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(result.status == 0, "\(result.errorText)")
            #expect(result.outputText.contains("nothing to write"), "\(result.outputText)")
            #expect(result.outputText.contains("0 added"), "\(result.outputText)")
            #expect(try folderSnapshot(store) == before)
            #expect(try Self.backups(of: store).count == 1)
            // Another time zone finds the records where they are and moves nothing either.
            #expect(try MinutafsBinary.run(["migrate", store, "--timezone", "Pacific/Kiritimati"]).status == 0)
            #expect(try folderSnapshot(store) == before)
        }
    }

    @Test("a record already in a migrated store's documents with other values is kept as the documents have it, reported, and the run is not verified")
    func keepsDocumentValues() throws {
        try withTemporaryDirectory { folder in
            let fixture = LegacyStoreFixture.standard()
            let store = folder + "/Minuta"
            try fixture.write(to: store)
            #expect(try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"]).status == 0)
            let documents = try folderSnapshot(store, suffix: ".automerge")
            // The legacy file changes after the migration (the documents are the truth by now).
            let record = fixture.records[3]
            let edited = record.json.replacingOccurrences(of: "zweite Zeile", with: "edited later")
            try Data(edited.utf8).write(to: URL(fileURLWithPath: store + "/" + record.file))
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(result.status == 1, "\(result.errorText)")
            #expect(result.outputText.contains("1 already there with other values (kept)"), "\(result.outputText)")
            #expect(result.errorText.contains("verification failed"), "\(result.errorText)")
            #expect(result.errorText.contains("\(record.file): record \(record.id.uppercased()) is already in records/2024/01.automerge with other values"),
                    "\(result.errorText)")
            #expect(try folderSnapshot(store, suffix: ".automerge") == documents)
        }
    }

    @Test("a record that cannot be read makes migrate exit 1, names the file, and leaves the store unmigrated")
    func unreadableRecord() throws {
        try withTemporaryDirectory { folder in
            let fixture = LegacyStoreFixture.standard()
            let store = folder + "/Minuta"
            try fixture.write(to: store)
            let broken = "records/2024/06/2024-06-01_090000.json"
            try FileManager.default.createDirectory(atPath: store + "/records/2024/06", withIntermediateDirectories: true)
            try Data("{\"id\": \"not-a-uuid\", \"startTime\": \"2024-06-01T09:00:00Z\"}\n".utf8).write(to: URL(fileURLWithPath: store + "/" + broken))
            let truncated = "records/2024/07/2024-07-01_090000.json"
            try FileManager.default.createDirectory(atPath: store + "/records/2024/07", withIntermediateDirectories: true)
            try Data("{\"id\": \"4E2A1B5C-0D3E-4F60-8A7B-9C8D7E6F5A4B\", \"startTime\": \"2024-07-01T09:00".utf8).write(to: URL(fileURLWithPath: store + "/" + truncated))

            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC", "--cleanup"])
            #expect(result.status == 1)
            #expect(result.errorText.contains("minutafs: \(store)/\(broken): \"id\""), "\(result.errorText)")
            #expect(result.errorText.contains("minutafs: \(store)/\(truncated): line 1"), "\(result.errorText)")
            #expect(result.errorText.contains("not complete"), "\(result.errorText)")
            // Not marked complete: no tags.automerge, so mount still sees a legacy store; --cleanup removed nothing.
            #expect(!FileManager.default.fileExists(atPath: store + "/tags.automerge"))
            #expect(FileManager.default.fileExists(atPath: store + "/tags.json"))
            for record in fixture.records { #expect(FileManager.default.fileExists(atPath: store + "/" + record.file)) }

            // Fixed, the next run completes, and adds no record twice.
            try FileManager.default.removeItem(atPath: store + "/" + broken)
            try FileManager.default.removeItem(atPath: store + "/" + truncated)
            let fixed = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(fixed.status == 0, "\(fixed.errorText)")
            #expect(fixed.outputText.contains("0 added, \(fixture.records.count) already there"), "\(fixed.outputText)")
            #expect(FileManager.default.fileExists(atPath: store + "/tags.automerge"))
            let exported = folder + "/exported"
            #expect(try MinutafsBinary.run(["export", store, exported, "--timezone", "UTC"]).status == 0)
            try Self.expectSame(fixture, asExportIn: exported)
        }
    }

    @Test("--cleanup removes the legacy JSON files only after a verified migration, and keeps the images")
    func cleanup() throws {
        try withTemporaryDirectory { folder in
            let fixture = LegacyStoreFixture.standard()
            let store = folder + "/Minuta"
            try fixture.write(to: store)
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC", "--cleanup"])
            #expect(result.status == 0, "\(result.errorText)")
            #expect(result.outputText.contains("cleanup: removed \(fixture.records.count + 1) legacy JSON files"), "\(result.outputText)")
            let left = try folderSnapshot(store)
            #expect(!left.keys.contains { $0.hasSuffix(".json") }, "\(left.keys.sorted())")
            for image in fixture.images { #expect(left[image.path] == image.bytes) }
            // The backup still has every JSON file, so a rollback never depends on the documents alone.
            let backups = try Self.backups(of: store)
            #expect(try folderSnapshot(folder + "/" + (backups.first ?? ""), suffix: ".json").count == fixture.records.count + 1)
            // Nothing legacy left: migrate says so and succeeds.
            let again = try MinutafsBinary.run(["migrate", store])
            #expect(again.status == 0)
            #expect(again.outputText.contains("nothing to migrate"))
        }
    }

    @Test("migrate and export fail with one line for what they cannot use")
    func failures() throws {
        try withTemporaryDirectory { folder in
            try expectOneLineFailure(of: ["migrate", folder + "/missing"], naming: folder + "/missing")
            try expectOneLineFailure(of: ["migrate", folder], naming: folder)
            try expectOneLineFailure(of: ["export", folder + "/missing", folder + "/out"], naming: folder + "/missing")
            let store = folder + "/Minuta"
            try LegacyStoreFixture.standard().write(to: store)
            #expect(try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"]).status == 0)
            try FileManager.default.createDirectory(atPath: folder + "/full", withIntermediateDirectories: false)
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/full/file"))
            try expectOneLineFailure(of: ["export", store, folder + "/full"], naming: folder + "/full")
            try expectOneLineFailure(of: ["export", store, store + "/inside"], naming: store + "/inside")
            // An unknown time zone is a usage error: 64, the option named, nothing changed.
            let zone = try MinutafsBinary.run(["migrate", store, "--timezone", "Mars/Olympus"])
            #expect(zone.status == 64 && zone.errorText.contains("--timezone Mars/Olympus: unknown time zone"), "\(zone.errorText)")
            // The backup never goes inside the store, and nothing is changed when it cannot be made.
            let legacy = folder + "/Legacy"
            try LegacyStoreFixture.standard().write(to: legacy)
            try expectOneLineFailure(of: ["migrate", legacy, "--backup-dir", legacy + "/backup"], naming: legacy + "/backup")
            #expect(!FileManager.default.fileExists(atPath: legacy + "/tags.automerge"))
            #expect(!FileManager.default.fileExists(atPath: legacy + "/backup"))
        }
    }
}
