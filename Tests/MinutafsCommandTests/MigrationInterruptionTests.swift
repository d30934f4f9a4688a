import Foundation
import Testing
import TestSupport

/// A `minutafs migrate` killed part way: killed at fixed points
/// named by `MINUTAFS_STOP_AT` (the command sends itself SIGKILL there), not after random sleeps.
struct MigrationInterruptionTests {
    static let killed: Int32 = 128 + 9

    @Test("item 7: killed during the backup, no backup carries the normal name; the rerun says what it found and makes a whole one")
    func killedDuringBackup() throws {
        try withTemporaryDirectory { folder in
            let fixture = LegacyStoreFixture.standard()
            let store = folder + "/Minuta"
            try fixture.write(to: store)
            let stopped = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"], environment: ["MINUTAFS_STOP_AT": "backup:3"])
            #expect(stopped.status == Self.killed, "\(stopped.outputText)\(stopped.errorText)")
            let left = try MigrateCommandTests.backups(of: store)
            #expect(left.count == 1)
            #expect(left.allSatisfy { $0.hasSuffix(".incomplete") }, "\(left)")
            #expect(try folderSnapshot(folder + "/" + (left.first ?? "")).count == 3)
            #expect(try folderSnapshot(store, suffix: ".automerge").isEmpty)

            let rerun = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(rerun.status == 0, "\(rerun.errorText)")
            #expect(rerun.errorText.contains("\(left.first ?? ""): an incomplete backup"), "\(rerun.errorText)")
            let whole = try MigrateCommandTests.backups(of: store).filter { !$0.hasSuffix(".incomplete") }
            #expect(whole.count == 1)
            #expect(try folderSnapshot(folder + "/" + (whole.first ?? "")).count == fixture.records.count + 1 + fixture.images.count)
        }
    }

    @Test("required: a legacy file edited after the documents are written and before the verification fails the run by name, which stays unmigrated; the rerun takes the edit")
    func editedBeforeVerification() throws {
        try withTemporaryDirectory { folder in
            let fixture = LegacyStoreFixture.standard()
            let store = folder + "/Minuta"
            try fixture.write(to: store)
            let marker = folder + "/paused"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try MinutafsBinary.path())
            process.arguments = ["migrate", store, "--timezone", "UTC", "--cleanup"]
            process.environment = ProcessInfo.processInfo.environment.merging(["MINUTAFS_PAUSE_AT": "verify:" + marker]) { $1 }
            let errors = folder + "/stderr"
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            _ = eventually(within: 60) { FileManager.default.fileExists(atPath: marker) || !process.isRunning }
            #expect(FileManager.default.fileExists(atPath: marker), "migrate never reached the verification")

            let record = fixture.records[3]
            let edited = record.json.replacingOccurrences(of: "zweite Zeile", with: "edited during the run")
            try Data(edited.utf8).write(to: URL(fileURLWithPath: store + "/" + record.file))
            try? FileManager.default.removeItem(atPath: marker)
            process.waitUntilExit()

            #expect(process.terminationStatus == 1)
            let errorText = String(decoding: try Fixtures.contents(ofFileAtPath: errors), as: UTF8.self)
            #expect(errorText.contains("\(record.file): record \(record.id.uppercased()) has other values in records/2024/01.automerge"), "\(errorText)")
            #expect(FileManager.default.fileExists(atPath: store + "/" + record.file), "--cleanup ran")
            #expect(!FileManager.default.fileExists(atPath: store + "/tags.automerge"), "the store was marked migrated")

            let rerun = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
            #expect(rerun.status == 0, "\(rerun.errorText)")
            #expect(rerun.outputText.contains("1 replaced"), "\(rerun.outputText)")
        }
    }

    @Test("killed during the writes, the store stays unmigrated; a rerun after the app edited a record migrates the edited values")
    func killedDuringWrites() throws {
        try withTemporaryDirectory { folder in
            let fixture = LegacyStoreFixture.standard()
            let store = folder + "/Minuta"
            try fixture.write(to: store)
            let stopped = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"], environment: ["MINUTAFS_STOP_AT": "write:2"])
            #expect(stopped.status == Self.killed, "\(stopped.outputText)\(stopped.errorText)")
            let written = try folderSnapshot(store, suffix: ".automerge")
            #expect(written.count == 2, "\(written.keys.sorted())")
            #expect(written["records/2024/01.automerge"] != nil, "\(written.keys.sorted())")
            #expect(written["tags.automerge"] == nil)

            // The old app edits a January record (already written by the stopped run) before the rerun.
            let record = fixture.records[3]
            let edited = record.json.replacingOccurrences(of: "zweite Zeile", with: "edited in the app")
            #expect(edited != record.json)
            try Data(edited.utf8).write(to: URL(fileURLWithPath: store + "/" + record.file))

            let rerun = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC", "--cleanup"])
            #expect(rerun.status == 0, "\(rerun.errorText)")
            #expect(rerun.outputText.contains("verified: 3 of 3 tags and \(fixture.records.count) of \(fixture.records.count) records"), "\(rerun.outputText)")
            let exported = folder + "/exported"
            #expect(try MinutafsBinary.run(["export", store, exported, "--timezone", "UTC"]).status == 0)
            let comment = try LegacyStoreFixture.readRecords(in: exported)[record.id.uppercased()]?["comment"] as? String
            #expect(comment == record.comment?.replacingOccurrences(of: "zweite Zeile", with: "edited in the app"))
        }
    }
}
