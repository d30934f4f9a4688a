import Foundation
@testable import MinutaFS
import Testing

@Suite("Mounting and unmounting")
struct MountLifecycleTests {
    @Test("unmount while a file is open for writing: what it wrote is saved, and run() returns")
    func unmountWithOpenFile() throws {
        try MountedTree.with { mounted in
            let descriptor = open(mounted.path(InMemoryTree.imagePath), O_WRONLY | O_APPEND)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            #expect(write(descriptor, "first", 5) == 5)
            #expect(fsync(descriptor) == 0)
            #expect(mounted.tree.bytes(at: InMemoryTree.imagePath) == InMemoryTree.image + Array("first".utf8))
            // Written, not flushed: the unmount saves it.
            #expect(write(descriptor, "second", 6) == 6)

            let outcome = try #require(mounted.unmountAndWait(), "run() did not return")
            #expect(throws: Never.self) { try outcome.get() }
            #expect(!mounted.isMounted)
            #expect(mounted.tree.bytes(at: InMemoryTree.imagePath) == InMemoryTree.image + Array("firstsecond".utf8))
            #expect(mounted.tree.calls.count == 2)
        }
    }

    @Test("fusermount3 -u from outside ends run()")
    func externalUnmount() throws {
        try MountedTree.with { mounted in
            let result = try ProgramResult.run("fusermount3", ["-u", mounted.mountPoint], in: "/")
            #expect(result.status == 0, "\(result)")
            let outcome = try #require(mounted.waitForRunToReturn(within: 10), "run() did not return")
            #expect(throws: Never.self) { try outcome.get() }
            #expect(!mounted.isMounted)
        }
    }

    @Test("SIGTERM saves, unmounts, and ends run()")
    func terminationSignal() throws {
        try MountedTree.with(options: MountOptions(handlesSignals: true)) { mounted in
            let descriptor = open(mounted.path(InMemoryTree.imagePath), O_WRONLY | O_TRUNC)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            #expect(write(descriptor, "replaced", 8) == 8)
            kill(getpid(), SIGTERM)
            let outcome = try #require(mounted.waitForRunToReturn(within: 10), "run() did not return")
            #expect(throws: Never.self) { try outcome.get() }
            #expect(!mounted.isMounted)
            #expect(mounted.tree.text(at: InMemoryTree.imagePath) == "replaced")
        }
    }

    @Test("a read-only mount reads, and refuses every change with EROFS")
    func readOnly() throws {
        try MountedTree.with(options: MountOptions(readOnly: true, handlesSignals: false)) { mounted in
            let record = mounted.path(InMemoryTree.recordPath)
            #expect(try mounted.run("cat", [record]).outputText == InMemoryTree.record)
            for (program, arguments) in [
                ("sh", ["-c", "echo x > \"$1\"", "sh", record]), ("rm", [record]),
                ("mkdir", [mounted.path("/records/2030")]), ("touch", [mounted.path("/records/2024/01/.x.swp")]),
                ("sed", ["-i", "s/a/b/", record]),
            ] {
                let result = try mounted.run(program, arguments)
                #expect(result.status != 0)
                #expect(result.errorText.contains("Read-only file system"), "\(program): \(result)")
            }
            #expect(mounted.tree.calls.isEmpty)
        }
    }

    @Test("the mount point must exist, be a directory, be empty and not be mounted already")
    func mountPointChecks() throws {
        let folder = "/var/tmp/minutafs-mountpoint-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/full", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/file"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/full/inside"))
        let tree = InMemoryTree.sample()
        #expect(throws: MountError.mountPointMissing(folder + "/missing")) {
            try FuseMount(tree: tree, mountPoint: folder + "/missing", options: MountOptions())
        }
        #expect(throws: MountError.mountPointNotDirectory(folder + "/file")) {
            try FuseMount(tree: tree, mountPoint: folder + "/file", options: MountOptions())
        }
        #expect(throws: MountError.mountPointNotEmpty(folder + "/full")) {
            try FuseMount(tree: tree, mountPoint: folder + "/full", options: MountOptions())
        }
        try MountedTree.with { mounted in
            #expect(throws: MountError.alreadyMounted(mounted.mountPoint)) {
                try FuseMount(tree: tree, mountPoint: mounted.mountPoint, options: MountOptions())
            }
        }
    }

    @Test("run() serves once; unmount() before run() makes it return at once")
    func runOnce() throws {
        let folder = "/var/tmp/minutafs-mountpoint-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mount = try FuseMount(tree: InMemoryTree.sample(), mountPoint: folder, options: MountOptions(handlesSignals: false))
        mount.unmount()
        try mount.run()
        #expect(!MountedTree.isMountPoint(folder))
        #expect(throws: MountError.alreadyRunning) { try mount.run() }
    }

    @Test("libfuse refuses an unknown option")
    func unknownOption() throws {
        let folder = "/var/tmp/minutafs-mountpoint-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let options = MountOptions(extra: ["no_such_option"], handlesSignals: false)
        let mount = try FuseMount(tree: InMemoryTree.sample(), mountPoint: folder, options: options)
        #expect(throws: MountError.optionsRejected(options.libfuseOptions)) { try mount.run() }
        #expect(!MountedTree.isMountPoint(folder))
    }
}
