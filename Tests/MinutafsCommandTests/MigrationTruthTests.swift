import Foundation
import Testing
import TestSupport

/// `minutafs migrate` and `export` tell the whole truth: no file left out
/// in silence, no "verified" over part of a store, failures named first and by file.
struct MigrationTruthTests {
    static let work = MigrationSafetyTests.work
    static let recordID = MigrationSafetyTests.recordID

    /// Runs `minutafs ARGUMENTS` with standard output and standard error into one file, as a
    /// log or `2>&1 | less` gets them; `asNobody` runs it as the user nobody (needs root).
    static func runCombined(_ arguments: [String], asNobody: Bool = false, in folder: String) throws -> (status: Int32, text: String) {
        let log = folder + "/combined-\(UUID().uuidString).log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: log) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? handle.close() }
        let process = Process()
        if asNobody {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", try MinutafsBinary.pathForAnyUser()] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: try MinutafsBinary.path())
            process.arguments = arguments
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: try Fixtures.contents(ofFileAtPath: log), as: UTF8.self))
    }

    /// A store with tags.json (the tag `work`) and one record per year in 2023 and 2024.
    static func twoYears(_ store: String) throws {
        try MigrationSafetyTests.makeStore(store, records: [
            "records/2023/05/a.json": MigrationSafetyTests.record(start: "\"2023-05-15T09:30:00Z\"", comment: "2023"),
            "records/2024/01/b.json": MigrationSafetyTests.record(id: "22222222-2222-4222-A222-222222222222", comment: "2024"),
        ])
    }

    @Test("a year folder that is a symbolic link is refused by name: not verified, not marked migrated")
    func linkedYear() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try Self.twoYears(store)
            // The 2023 folder lives elsewhere and is linked in.
            try FileManager.default.moveItem(atPath: store + "/records/2023", toPath: folder + "/archive-2023")
            try FileManager.default.createSymbolicLink(atPath: store + "/records/2023", withDestinationPath: folder + "/archive-2023")
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC", "--cleanup"])
            #expect(result.status == 1, "\(result.outputText)\(result.errorText)")
            #expect(!result.outputText.contains("verified:"), "\(result.outputText)")
            #expect(result.errorText.contains("\(store)/records/2023: a symbolic link to \(folder)/archive-2023"), "\(result.errorText)")
            #expect(!FileManager.default.fileExists(atPath: store + "/tags.automerge"))
            #expect(FileManager.default.fileExists(atPath: folder + "/archive-2023/05/a.json"))
            #expect(FileManager.default.fileExists(atPath: store + "/tags.json"))
        }
    }

    @Test("a record file that is a symbolic link is refused by name too")
    func linkedRecordFile() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try Self.twoYears(store)
            try FileManager.default.moveItem(atPath: store + "/records/2024/01/b.json", toPath: folder + "/b.json")
            try FileManager.default.createSymbolicLink(atPath: store + "/records/2024/01/b.json", withDestinationPath: folder + "/b.json")
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(result.status == 1, "\(result.outputText)\(result.errorText)")
            #expect(result.errorText.contains("\(store)/records/2024/01/b.json: a symbolic link"), "\(result.errorText)")
            #expect(!FileManager.default.fileExists(atPath: store + "/tags.automerge"))
        }
    }

    @Test("a legacy file another user cannot read is named, the backup is not blamed, and nothing is left behind",
          .enabled(if: getuid() == 0, "running a command as nobody needs root"))
    func unreadableFile() throws {
        try withTemporaryDirectory { folder in
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder)
            let store = folder + "/Minuta"
            try Self.twoYears(store)
            #expect(chown(store, 65534, 65534) == 0)
            for path in try FileManager.default.subpathsOfDirectory(atPath: store) { #expect(chown(store + "/" + path, 65534, 65534) == 0) }
            let hidden = "records/2024/01/b.json"
            try FileManager.default.setAttributes([.posixPermissions: 0o000, .ownerAccountID: 0], ofItemAtPath: store + "/" + hidden)
            for _ in 0..<2 {
                let result = try Self.runCombined(["migrate", store, "--timezone", "UTC"], asNobody: true, in: folder)
                #expect(result.status == 1, "\(result.text)")
                #expect(result.text.contains("\(store)/\(hidden): cannot be read (open failed: Permission denied)"), "\(result.text)")
                #expect(result.text.contains("nothing was changed"), "\(result.text)")
                #expect(!result.text.contains("backup"), "\(result.text)")
                #expect(!result.text.contains("left by a run that was stopped"), "\(result.text)")
                let backups = try MigrateCommandTests.backups(of: store)
                #expect(backups.isEmpty, "\(backups)")
                #expect(try folderSnapshot(store, suffix: ".automerge").isEmpty)
            }
        }
    }

    @Test("no tags.json while records name tags: refused before any change, and --no-tags goes on")
    func noTagsFile() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try Self.twoYears(store)
            try FileManager.default.removeItem(atPath: store + "/tags.json")
            let refused = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(refused.status == 1, "\(refused.outputText)\(refused.errorText)")
            #expect(refused.errorText.contains("there is no tags.json, and 2 records name 1 tag id that no tag has"), "\(refused.errorText)")
            #expect(refused.errorText.contains("--no-tags"), "\(refused.errorText)")
            #expect(!refused.outputText.contains("verified:"), "\(refused.outputText)")
            #expect(try folderSnapshot(store, suffix: ".automerge").isEmpty)
            #expect(try MigrateCommandTests.backups(of: store).isEmpty)

            let allowed = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC", "--no-tags"])
            #expect(allowed.status == 0, "\(allowed.errorText)")
            #expect(allowed.errorText.contains("no tags.json (--no-tags): 2 records keep 1 tag id that no tag has"), "\(allowed.errorText)")
            #expect(allowed.outputText.contains("verified: 0 of 0 tags (no tags.json)"), "\(allowed.outputText)")
            #expect(FileManager.default.fileExists(atPath: store + "/tags.automerge"))
        }
    }

    @Test("keys of tags.json beside \"tags\" are kept and come back with export; a lower-case record id is stored as written")
    func keepsWhatIsStored() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            let lower = "abcdef01-2345-4678-9abc-def012345678"
            try MigrationSafetyTests.makeStore(store, records: [
                "records/2024/01/a.json": MigrationSafetyTests.record(id: lower, comment: "lower-case id")])
            try MigrationSafetyTests.write(
                "{\"version\": 3, \"order\": [\"\(Self.work)\"], \"tags\": [{\"id\": \"\(Self.work)\", \"name\": \"Work\", \"color\": \"#4A90D9\", \"createdAt\": \"2023-01-01T00:00:00Z\", \"isArchived\": false}]}\n",
                to: store + "/tags.json")
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(result.status == 0, "\(result.errorText)")

            let january = try MinutafsBinary.run(["inspect", store + "/records/2024/01.automerge"])
            #expect(january.status == 0, "\(january.errorText)")
            #expect(january.outputText.contains("\"\(lower)\""), "\(january.outputText)")
            #expect(!january.outputText.contains(lower.uppercased()), "\(january.outputText)")

            let exported = folder + "/exported"
            let export = try MinutafsBinary.run(["export", store, exported, "--timezone", "UTC"])
            #expect(export.status == 0, "\(export.errorText)")
            let data = try Data(contentsOf: URL(fileURLWithPath: exported + "/tags.json"))
            let tags = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(tags["version"] as? Int == 3, "\(tags)")
            #expect(tags["order"] as? [String] == [Self.work], "\(tags)")
            #expect((tags["tags"] as? [Any])?.count == 1)
            let records = try LegacyStoreFixture.readRecords(in: exported)
            #expect(records[lower.uppercased()]?["id"] as? String == lower)
        }
    }

    @Test("a failed run says \"migration failed\" first, before its summary and the error lines, in one log")
    func failureFirst() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try MigrationSafetyTests.makeStore(store, records: [
                "records/2024/01/a.json": MigrationSafetyTests.record(comment: "fine"),
                "records/2024/02/broken.json": "{\"id\": "])
            let result = try Self.runCombined(["migrate", store, "--timezone", "UTC"], in: folder)
            #expect(result.status == 1, "\(result.text)")
            let failed = try #require(result.text.range(of: "migration failed"), "\(result.text)")
            let tags = try #require(result.text.range(of: "tags:"), "\(result.text)")
            let named = try #require(result.text.range(of: "minutafs: \(store)/records/2024/02/broken.json"), "\(result.text)")
            #expect(failed.lowerBound < tags.lowerBound && tags.lowerBound < named.lowerBound, "\(result.text)")
            #expect(!result.text.contains("migrated \(store)"), "\(result.text)")
            #expect(!result.text.contains("tags:      1 added"), "\(result.text)")
            #expect(result.text.contains("1 to add, not written"), "\(result.text)")
        }
    }

    @Test("an Office lock file ~$x.json, which the mount hides, does not block the migration")
    func officeLockFile() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try MigrationSafetyTests.makeStore(store, records: [
                "records/2024/01/a.json": MigrationSafetyTests.record(comment: "fine"),
                "records/2024/01/~$a.json": "\u{0}\u{5}owner"])
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC", "--cleanup"])
            #expect(result.status == 0, "\(result.outputText)\(result.errorText)")
            #expect(result.outputText.contains("verified: 1 of 1 tags and 1 of 1 records"), "\(result.outputText)")
            // Not read, not removed, but in the backup.
            #expect(FileManager.default.fileExists(atPath: store + "/records/2024/01/~$a.json"))
            let backup = try #require(try MigrateCommandTests.backups(of: store).first)
            #expect(FileManager.default.fileExists(atPath: folder + "/" + backup + "/records/2024/01/~$a.json"))
        }
    }

    @Test("--backup-dir takes an existing empty folder")
    func emptyBackupFolder() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try Self.twoYears(store)
            try FileManager.default.createDirectory(atPath: folder + "/backup", withIntermediateDirectories: false)
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC", "--backup-dir", folder + "/backup"])
            #expect(result.status == 0, "\(result.errorText)")
            #expect(FileManager.default.fileExists(atPath: folder + "/backup/tags.json"))
            #expect(FileManager.default.fileExists(atPath: folder + "/backup/records/2023/05/a.json"))
            #expect(!FileManager.default.fileExists(atPath: folder + "/backup.incomplete"))
            // One with something in it is still refused, in one line.
            let full = folder + "/full"
            try MigrationSafetyTests.write("x", to: full + "/file")
            let other = folder + "/Other"
            try Self.twoYears(other)
            try expectOneLineFailure(of: ["migrate", other, "--timezone", "UTC", "--backup-dir", full], naming: full)
        }
    }

    @Test("records the mount will refuse to save (endTime before startTime, over 16 MiB) are migrated and listed")
    func unsaveableRecords() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            let backwards = "{\"id\": \"\(Self.recordID)\", \"startTime\": \"2024-01-15T10:30:00Z\", \"endTime\": \"2024-01-15T09:30:00Z\"}\n"
            let huge = MigrationSafetyTests.record(id: "77777777-7777-4777-A777-777777777777", comment: String(repeating: "x", count: 17 << 20))
            try MigrationSafetyTests.makeStore(store, records: ["records/2024/01/backwards.json": backwards, "records/2024/01/huge.json": huge])
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(result.status == 0, "\(result.errorText)")
            #expect(result.errorText.contains("records/2024/01/backwards.json: record \(Self.recordID) ends before it starts"), "\(result.errorText)")
            #expect(result.errorText.contains("(EINVAL)"), "\(result.errorText)")
            #expect(result.errorText.contains("records/2024/01/huge.json: record 77777777-7777-4777-A777-777777777777 is"), "\(result.errorText)")
            #expect(result.errorText.contains("(EFBIG)"), "\(result.errorText)")
            #expect(result.outputText.contains("to fix:    2 records"), "\(result.outputText)")
        }
    }

    @Test("the backup and the verification show progress, not silence")
    func progressInEveryPhase() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try LegacyStoreFixture.standard().write(to: store)
            let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(result.status == 0, "\(result.errorText)")
            for phase in ["reading:", "backing up:", "writing:", "re-reading:", "verifying:"] {
                #expect(result.errorText.contains(phase), "\(phase) \(result.errorText)")
            }
        }
    }

    @Test("export of a store a migration did not finish is refused, saying what to run")
    func exportHalfMigrated() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try MigrationSafetyTests.makeStore(store, records: [
                "records/2024/01/a.json": MigrationSafetyTests.record(comment: "fine"),
                "records/2024/02/broken.json": "{\"id\": "])
            #expect(try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"]).status == 1)
            #expect(FileManager.default.fileExists(atPath: store + "/records/2024/01.automerge"))
            let result = try expectOneLineFailure(of: ["export", store, folder + "/out"], naming: store)
            #expect(result.errorText.contains("not migrated") && result.errorText.contains("minutafs migrate"), "\(result.errorText)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
        }
    }

    @Test("an export killed part way leaves a hidden folder that the next export removes and names")
    func exportLeftover() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/Minuta"
            try Self.twoYears(store)
            #expect(try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"]).status == 0)
            let leftover = folder + "/.out.minutafs-export-1f2e3d"
            try MigrationSafetyTests.write("{\"tags\": []}", to: leftover + "/tags.json")
            let result = try MinutafsBinary.run(["export", store, folder + "/out", "--timezone", "UTC"])
            #expect(result.status == 0, "\(result.errorText)")
            #expect(result.errorText.contains("removed \(leftover), left by an earlier export into \(folder)/out that was stopped"), "\(result.errorText)")
            #expect(!FileManager.default.fileExists(atPath: leftover))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("minutafs-export") }.isEmpty)
        }
    }
}
