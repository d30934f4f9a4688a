import Foundation
import Glibc
import Testing
import TestSupport

/// One minutafs writer per store per machine, whoever runs it (SPEC 5a): the lock
/// belongs to the store folder, so a second mount, `merge`, `migrate` or in-place `doc compact`
/// is refused with another HOME, another XDG_STATE_HOME or as another user, and the refusal names
/// the mount point and the pid holding it. Nothing for it is written into the store folder.
@Suite(.serialized)
struct StoreLockMountTests {
    /// A second writer's environment: nothing shared with the mount's.
    static func otherEnvironment(_ folder: String) throws -> [String: String] {
        for name in ["home2", "home2/state", "home2/cache"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: false)
        }
        return ["HOME": folder + "/home2", "XDG_STATE_HOME": folder + "/home2/state", "XDG_CACHE_HOME": folder + "/home2/cache"]
    }

    static func mountEnvironment(_ folder: String) throws -> [String: String] {
        try FileManager.default.createDirectory(atPath: folder + "/home1", withIntermediateDirectories: false)
        return ["HOME": folder + "/home1", "XDG_STATE_HOME": folder + "/home1/state", "XDG_CACHE_HOME": folder + "/home1/cache"]
    }

    /// Every name in the store folder, folders included.
    static func names(in store: String) -> [String] {
        (FileManager.default.enumerator(atPath: store)?.allObjects as? [String] ?? []).sorted()
    }

    @Test("a second mount of a mounted store with another HOME and XDG_STATE_HOME is refused naming the mount point and pid; the first keeps working")
    func secondMountOtherHome() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder, environment: try Self.mountEnvironment(folder))
            let pid = mounted.process.processIdentifier
            let names = Self.names(in: mounted.store)
            let environment = try Self.otherEnvironment(folder)
            try FileManager.default.createDirectory(atPath: folder + "/second", withIntermediateDirectories: false)
            // Before the lock was the store folder's, this second mount succeeded: take it down then.
            defer { if MountedStore.isMounted(folder + "/second") { _ = try? Shell.run("fusermount3 -u '\(folder)/second'") } }
            for arguments in [["mount", mounted.store, folder + "/second"]] {
                let second = try MinutafsBinary.run(arguments, environment: environment)
                #expect(second.status == 1, "\(arguments): \(second.errorText)")
                #expect(second.errorText.contains("the store is in use: mounted at \(mounted.mountPoint) by process \(pid); a store is mounted once per machine"),
                        "\(arguments): \(second.errorText)")
                #expect(!MountedStore.isMounted(folder + "/second"))
            }
            #expect(Self.names(in: mounted.store) == names)
            #expect(try Shell.run("cat '\(mounted.mountPoint)/tags.json' > /dev/null").status == 0)
            #expect(mounted.unmount() == 0)
            // Once unmounted, the store can be mounted again with the other environment.
            let again = try MountedStore(in: folder, copyingSample: false, environment: environment)
            #expect(again.unmount() == 0)
        }
    }

    @Test("merge, migrate and an in-place doc compact of a mounted store's document with another HOME are refused, naming the mount; the file is unchanged")
    func writersOtherHome() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder, environment: try Self.mountEnvironment(folder))
            let pid = mounted.process.processIdentifier
            let environment = try Self.otherEnvironment(folder)
            let before = try folderSnapshot(mounted.store)
            let names = Self.names(in: mounted.store)
            let holder = "the store is in use: mounted at \(mounted.mountPoint) by process \(pid)"
            let document = mounted.store + "/records/2024/01.automerge"
            for arguments in [["merge", mounted.store], ["migrate", mounted.store], ["doc", "compact", document], ["doc", "compact", mounted.store + "/tags.automerge"]] {
                let result = try MinutafsBinary.run(arguments, environment: environment)
                #expect(result.status == 1, "\(arguments): \(result.errorText)")
                #expect(result.errorText.contains(holder), "\(arguments): \(result.errorText)")
            }
            #expect(try folderSnapshot(mounted.store) == before)
            #expect(Self.names(in: mounted.store) == names)
            #expect(mounted.unmount() == 0)
            // Unmounted, the same doc compact works.
            let compact = try MinutafsBinary.run(["doc", "compact", document], environment: environment)
            #expect(compact.status == 0, "\(compact.errorText)")
        }
    }

    @Test("another user (nobody, no HOME) is refused too: the lock is the store folder's, not the user's",
          .enabled(if: getuid() == 0, "running a command as nobody needs root"))
    func otherUser() throws {
        try SecurityTests.withOpenFolder { folder in
            let mounted = try MountedStore(in: folder, environment: try Self.mountEnvironment(folder))
            let pid = mounted.process.processIdentifier
            try Shell.run("chmod -R a+rX '\(mounted.store)'")
            let before = try folderSnapshot(mounted.store)
            let binary = try MinutafsBinary.pathForAnyUser()
            let merge = try SecurityTests.asNobody("env -u HOME -u XDG_STATE_HOME '\(binary)' merge '\(mounted.store)'; echo \"status $?\"", in: folder)
            #expect(merge.output.contains("the store is in use: mounted at \(mounted.mountPoint) by process \(pid)"), "\(merge.output)")
            #expect(merge.output.hasSuffix("status 1\n"), "\(merge.output)")
            let compact = try SecurityTests.asNobody(
                "HOME=/nonexistent '\(binary)' doc compact '\(mounted.store)/records/2024/01.automerge'; echo \"status $?\"", in: folder)
            #expect(compact.output.contains("the store is in use: mounted at \(mounted.mountPoint) by process \(pid)"), "\(compact.output)")
            #expect(compact.output.hasSuffix("status 1\n"), "\(compact.output)")
            #expect(try folderSnapshot(mounted.store) == before)
            #expect(mounted.unmount() == 0)
        }
    }
}
