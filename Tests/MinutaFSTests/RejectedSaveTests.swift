import Foundation
import MinutaFS
import Testing

/// A save the tree refuses fails the program's `close` or `fsync` with the tree's error, and the file
/// shows what the tree holds again (SPEC section 4, bad input).
@Suite("Saves the tree refuses")
struct RejectedSaveTests {
    @Test("close fails with EINVAL and the record reads back unchanged")
    func closeFails() throws {
        try MountedTree.with { mounted in
            let script = """
                import sys
                file = open(sys.argv[1], "w")
                file.write('{"id": broken')
                try:
                    file.close()
                    print("closed")
                except OSError as error:
                    print("errno", error.errno)
                print(open(sys.argv[1]).read(), end="")
                """
            let result = try mounted.run("python3", ["-c", script, mounted.path(InMemoryTree.recordPath)])
            #expect(result.status == 0, "\(result)")
            #expect(result.outputText == "errno \(EINVAL)\n" + InMemoryTree.record)
            #expect(mounted.tree.text(at: InMemoryTree.recordPath) == InMemoryTree.record)
            let size = try mounted.run("stat", ["-c", "%s", mounted.path(InMemoryTree.recordPath)])
            #expect(size.outputText == "\(InMemoryTree.record.utf8.count)\n")
        }
    }

    @Test("fsync fails with EINVAL; a corrected write on the same descriptor then saves")
    func fsyncFailsThenSucceeds() throws {
        try MountedTree.with { mounted in
            let script = """
                import os, sys
                descriptor = os.open(sys.argv[1], os.O_WRONLY | os.O_TRUNC)
                os.write(descriptor, b'not json')
                try:
                    os.fsync(descriptor)
                    print("synced")
                except OSError as error:
                    print("errno", error.errno)
                os.ftruncate(descriptor, 0)
                os.pwrite(descriptor, b'{"id": "x"}', 0)
                os.fsync(descriptor)
                os.close(descriptor)
                print(open(sys.argv[1]).read())
                """
            let result = try mounted.run("python3", ["-c", script, mounted.path(InMemoryTree.recordPath)])
            #expect(result.status == 0, "\(result)")
            #expect(result.outputText == "errno \(EINVAL)\n{\"id\": \"x\"}\n")
            #expect(mounted.tree.calls == [
                .write(InMemoryTree.recordPath, Array("not json".utf8)),
                .write(InMemoryTree.recordPath, Array(#"{"id": "x"}"#.utf8)),
            ])
        }
    }

    @Test("a new file the tree refuses disappears after its close fails")
    func newFileRefused() throws {
        try MountedTree.with { mounted in
            let path = "/records/2024/01/new.json"
            let script = """
                import os, sys
                file = open(sys.argv[1], "w")
                file.write("nope")
                try:
                    file.close()
                except OSError as error:
                    print("errno", error.errno)
                print(os.path.exists(sys.argv[1]))
                """
            let result = try mounted.run("python3", ["-c", script, mounted.path(path)])
            #expect(result.status == 0, "\(result)")
            #expect(result.outputText == "errno \(EINVAL)\nFalse\n")
            #expect(!mounted.tree.exists(path))
        }
    }

    @Test("sed -i with a result the tree refuses fails, and leaves no temporary file behind in the tree")
    func renameRefused() throws {
        try MountedTree.with { mounted in
            let result = try mounted.run("sed", ["-i", "s/{/[/", mounted.path(InMemoryTree.recordPath)])
            #expect(result.status != 0)
            #expect(result.errorText.contains("Invalid argument"), "\(result)")
            #expect(mounted.tree.text(at: InMemoryTree.recordPath) == InMemoryTree.record)
            #expect(mounted.tree.calls.count == 1)
            #expect(mounted.tree.calls.first?.paths == [InMemoryTree.recordPath])
        }
    }

    @Test("the read-only status view refuses writing even to root; mode 0444")
    func readOnlyView() throws {
        try MountedTree.with { mounted in
            let status = mounted.path("/.minutafs/status")
            let mode = try mounted.run("stat", ["-c", "%A", status])
            #expect(mode.outputText == "-r--r--r--\n")
            let refused = try mounted.run("sh", ["-c", "echo x > \"$1\"", "sh", status])
            #expect(refused.status != 0)
            #expect(refused.errorText.contains("Permission denied"), "\(refused)")
            #expect(try mounted.run("cat", [status]).outputText.hasPrefix("store: "))
            #expect(mounted.tree.calls.isEmpty)
        }
    }
}
