import Foundation
import Testing
import TestSupport

/// A wrong path gets the right answer. `mount` refuses a folder that holds no
/// store as `check` does (and says how to start one), a store behind a folder the user cannot enter
/// is "permission denied" naming that folder, `log` says what is wrong with its arguments, and a
/// failed export names its destination.
@Suite(.serialized)
struct WrongPathTests {
    /// Unmounts whatever a command that should have been refused mounted at `mountPoint`.
    static func unmountIfMounted(_ mountPoint: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["fusermount3", "-u", "-z", mountPoint]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
    }

    /// Runs a command that should be refused at once under `timeout`, so a mount that is served
    /// instead (a foreground one) ends the test with status 124 rather than hanging it.
    static let bounded = ["timeout", "20"]

    @Test("mount refuses an empty folder and a folder of other files, as check does; the empty one is told about --create")
    func mountRefusesAFolderWithoutAStore() throws {
        try withTemporaryDirectory { folder in
            let empty = folder + "/Minuta"
            let documents = folder + "/Documents"
            let mountPoint = folder + "/mnt"
            for path in [empty, documents, mountPoint] {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            }
            try Data("notes".utf8).write(to: URL(fileURLWithPath: documents + "/notes.txt"))
            defer { Self.unmountIfMounted(mountPoint) }

            for arguments in [["mount", empty, mountPoint], ["mount", "-f", empty, mountPoint]] {
                let result = try expectOneLineFailure(of: arguments, naming: empty, wrapper: Self.bounded)
                #expect(result.errorText.contains("not a Minuta store: expected tags.automerge or a records/ folder in it, and the folder is empty"), "\(result.errorText)")
                #expect(result.errorText.contains("run `minutafs mount --create \(empty) \(mountPoint)`"), "\(result.errorText)")
                Self.unmountIfMounted(mountPoint)
            }
            let other = try expectOneLineFailure(of: ["mount", documents, mountPoint], naming: documents, wrapper: Self.bounded)
            #expect(other.errorText.contains("not a Minuta store: expected tags.automerge or a records/ folder in it. Check the path"), "\(other.errorText)")
            #expect(!other.errorText.contains("--create"), "\(other.errorText)")
            Self.unmountIfMounted(mountPoint)
            // Nothing was made in either folder.
            #expect(try FileManager.default.contentsOfDirectory(atPath: empty).isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: documents) == ["notes.txt"])

            // --create does not make a store among other files.
            let refused = try expectOneLineFailure(of: ["mount", "--create", documents, mountPoint], naming: documents, wrapper: Self.bounded)
            #expect(refused.errorText.contains("--create starts a new store only in a new or empty folder"), "\(refused.errorText)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: documents) == ["notes.txt"])
        }
    }

    @Test("a store behind a folder the user cannot enter: check, merge, report and mount say permission denied and name the folder",
          .enabled(if: getuid() == 0, "running a command as nobody needs root"))
    func permissionDenied() throws {
        try withTemporaryDirectory { folder in
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
            let locked = folder + "/locked"
            try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked)
            let behind = try StoreCommandSafetyTests.migratedStore(in: locked)
            let unreadable = try StoreCommandSafetyTests.migratedStore(in: folder, name: "Unreadable")
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: unreadable)
            let mountPoint = folder + "/mnt"
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: mountPoint)

            for command in [["check"], ["merge"], ["report"], ["log", "--json"]] {
                for (store, expected) in [(behind, "permission denied: you cannot enter the folder \(locked) "),
                                          (unreadable, "permission denied: you cannot read the folder \(unreadable) ")] {
                    var arguments = command + [store]
                    if command.first == "log" { arguments.append("0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81") }
                    let result = try MinutafsBinary.run(arguments, wrapper: MinutafsBinary.asNobody)
                    #expect(result.status == 1, "\(arguments): \(result.errorText)")
                    #expect(result.outputText.isEmpty, "\(arguments): \(result.outputText)")
                    #expect(result.errorText.hasPrefix("minutafs: \(store): \(expected)"), "\(arguments): \(result.errorText)")
                    #expect(!result.errorText.contains("no such file"), "\(arguments): \(result.errorText)")
                }
            }
            let mount = try MinutafsBinary.run(["mount", behind, mountPoint], environment: ["HOME": folder], wrapper: Self.bounded + MinutafsBinary.asNobody)
            Self.unmountIfMounted(mountPoint)
            #expect(mount.status == 1, "\(mount.errorText)")
            #expect(mount.errorText.hasPrefix("minutafs: \(behind): permission denied: you cannot enter the folder \(locked) "), "\(mount.errorText)")
        }
    }

    @Test("log: an id no document ever held, a missing path and a folder each get a line saying so, and exit 1")
    func logArguments() throws {
        try withTemporaryDirectory { folder in
            let store = try StoreCommandSafetyTests.migratedStore(in: folder)
            let mistyped = try expectOneLineFailure(of: ["log", store, "0BB84374-05B0-4A5F-94F7"], naming: store)
            #expect(mistyped.errorText.contains("no record with id 0BB84374-05B0-4A5F-94F7 was ever in this store (record ids look like "), "\(mistyped.errorText)")
            let unknown = try expectOneLineFailure(of: ["log", "--json", store, "0BB84374-05B0-4A5F-94F7-B5A6B2AEBF8F"], naming: store)
            #expect(unknown.errorText.contains("no record with id 0BB84374-05B0-4A5F-94F7-B5A6B2AEBF8F was ever in this store; "), "\(unknown.errorText)")

            let missing = try expectOneLineFailure(of: ["log", folder + "/nothing.json"], naming: folder + "/nothing.json")
            #expect(missing.errorText.contains(": no such file; give a record file in a mount"), "\(missing.errorText)")
            let directory = try expectOneLineFailure(of: ["log", store], naming: store)
            #expect(directory.errorText.contains(": is a folder; give a record file in a mount"), "\(directory.errorText)")
            #expect(directory.errorText.contains("the record id after it"), "\(directory.errorText)")
        }
    }

    @Test("an export that cannot be written names the destination, not the store or a hidden folder")
    func exportNamesItsDestination() throws {
        try withTemporaryDirectory { folder in
            let store = try StoreCommandSafetyTests.migratedStore(in: folder)
            let result = try expectOneLineFailure(of: ["export", store, "/proc/x", "--timezone", "UTC"], naming: "/proc/x")
            #expect(result.errorText.contains("cannot write the export here: "), "\(result.errorText)")
            #expect(!result.errorText.contains(".minutafs-export-") && !result.errorText.contains(store), "\(result.errorText)")
        }
    }
}
