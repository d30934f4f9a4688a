import Foundation
import Testing
import TestSupport

/// `check`, `merge`, `export`, `doc merge` and `mount` at the edges: a folder that
/// is not a store, one copy that cannot be merged among others, a failed export, documents owned
/// by someone else, and messages that repeat or contradict themselves.
struct StoreCommandSafetyTests {
    /// A migrated copy of the standard legacy fixture at `folder/name`.
    static func migratedStore(in folder: String, name: String = "Minuta") throws -> String {
        let store = folder + "/" + name
        try LegacyStoreFixture.standard().write(to: store)
        let result = try MinutafsBinary.run(["migrate", store, "--timezone", "UTC"])
        #expect(result.status == 0, "\(result.errorText)")
        return store
    }

    static func owner(of path: String) throws -> (uid: Int, gid: Int) {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return ((attributes[.ownerAccountID] as? NSNumber)?.intValue ?? -1, (attributes[.groupOwnerAccountID] as? NSNumber)?.intValue ?? -1)
    }

    @Test("item 8 and 12: check and merge refuse a folder that is not a store, an empty path and a file, saying what was expected")
    func notAStore() throws {
        try withTemporaryDirectory { folder in
            let empty = folder + "/Dropbox"
            try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
            for command in ["check", "merge"] {
                let result = try expectOneLineFailure(of: [command, empty], naming: empty)
                #expect(result.errorText.contains("not a Minuta store: expected tags.automerge or a records/ folder"), "\(result.errorText)")
                try expectOneLineFailure(of: [command, ""], naming: "\"\"")
            }
            let file = folder + "/file"
            try Data("x".utf8).write(to: URL(fileURLWithPath: file))
            let result = try expectOneLineFailure(of: ["check", file], naming: file)
            #expect(result.errorText.contains("not a folder"), "\(result.errorText)")
        }
    }

    @Test("item 9: a conflict copy that cannot be merged is reported, and every other copy is still merged")
    func mergeGoesOn() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.migratedStore(in: folder)
            let other = try Self.migratedStore(in: folder, name: "Other")
            // December's document is damaged, so its copy cannot be merged; January's copy can.
            let december = store + "/records/2023/12.automerge"
            try Data("not a document".utf8).write(to: URL(fileURLWithPath: december))
            let decemberCopy = store + "/records/2023/12 (Alice's conflicted copy 2024-01-15).automerge"
            try FileManager.default.copyItem(atPath: other + "/records/2023/12.automerge", toPath: decemberCopy)
            let januaryCopy = store + "/records/2024/01 (Alice's conflicted copy 2024-01-15).automerge"
            try FileManager.default.copyItem(atPath: other + "/records/2024/01.automerge", toPath: januaryCopy)

            let result = try MinutafsBinary.run(["merge", store])
            #expect(result.status == 1)
            #expect(result.outputText.contains("left records/2023/12 (Alice's conflicted copy 2024-01-15).automerge as it is: "), "\(result.outputText)")
            #expect(result.outputText.contains("merged records/2024/01 (Alice's conflicted copy 2024-01-15).automerge"), "\(result.outputText)")
            #expect(!FileManager.default.fileExists(atPath: januaryCopy))
            #expect(FileManager.default.fileExists(atPath: decemberCopy))
        }
    }

    @Test("item 10: a failed export leaves no destination behind, and the next export into it works")
    func failedExportLeavesNothing() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.migratedStore(in: folder)
            // A damaged March document: the export gets past tags.json and the earlier months, then fails.
            let march = store + "/records/2025/03.automerge"
            let good = try Fixtures.contents(ofFileAtPath: march)
            try Data("not a document".utf8).write(to: URL(fileURLWithPath: march))
            let destination = folder + "/exported"
            let failed = try MinutafsBinary.run(["export", store, destination, "--timezone", "UTC"])
            #expect(failed.status == 1)
            #expect(!FileManager.default.fileExists(atPath: destination))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["Minuta", "Minuta.backup-" + String((try MigrateCommandTests.backups(of: store).first ?? "").dropFirst("Minuta.backup-".count))].sorted())

            try Data(good).write(to: URL(fileURLWithPath: march))
            let again = try MinutafsBinary.run(["export", store, destination, "--timezone", "UTC"])
            #expect(again.status == 0, "\(again.errorText)")
            try MigrateCommandTests.expectSame(LegacyStoreFixture.standard(), asExportIn: destination)
        }
    }

    @Test("item 11: documents rewritten by merge and doc merge, run as root, keep their owner and group")
    func ownershipKept() throws {
        guard getuid() == 0 else { return }
        try withTemporaryDirectory { folder in
            let store = try Self.migratedStore(in: folder)
            let other = try Self.migratedStore(in: folder, name: "Other")
            let january = store + "/records/2024/01.automerge"
            let february = store + "/records/2024/02.automerge"
            #expect(chown(january, 4242, 4343) == 0)
            #expect(chown(february, 4242, 4343) == 0)
            let before = try Fixtures.contents(ofFileAtPath: january)

            try FileManager.default.copyItem(atPath: other + "/records/2024/01.automerge",
                                             toPath: store + "/records/2024/01 (Alice's conflicted copy 2024-01-15).automerge")
            let merge = try MinutafsBinary.run(["merge", store])
            #expect(merge.status == 0, "\(merge.outputText)\(merge.errorText)")
            #expect(try Fixtures.contents(ofFileAtPath: january) != before, "merge did not rewrite the document")
            #expect(try Self.owner(of: january) == (4242, 4343))

            let docMerge = try MinutafsBinary.run(["doc", "merge", "-o", february, february, other + "/records/2024/02.automerge"])
            #expect(docMerge.status == 0, "\(docMerge.errorText)")
            #expect(try Self.owner(of: february) == (4242, 4343))
        }
    }

    @Test("item 12: a failure passed on from the background mount names the mount point once")
    func mountPointNamedOnce() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.migratedStore(in: folder)
            let mountPoint = folder + "/mnt"
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
            try Data("x".utf8).write(to: URL(fileURLWithPath: mountPoint + "/file"))
            let result = try MinutafsBinary.run(["mount", store, mountPoint])
            #expect(result.status == 1)
            #expect(result.errorText == "minutafs: \(mountPoint): the mount point is not empty\n", "\(result.errorText)")
        }
    }
}
