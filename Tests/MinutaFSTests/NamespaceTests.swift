import Foundation
import MinutaFS
import Testing

@Suite("Folders, removal, inode numbers and extended attributes")
struct NamespaceTests {
    @Test("mkdir -p of a year and month, rmdir of an empty month, ENOTEMPTY for a full one")
    func folders() throws {
        try MountedTree.with { mounted in
            #expect(try mounted.run("mkdir", ["-p", mounted.path("/records/2025/02")]).status == 0)
            #expect(try mounted.run("ls", [mounted.path("/records/2025")]).outputText == "02\n")
            #expect(try mounted.run("rmdir", [mounted.path("/records/2025/02")]).status == 0)
            let full = try mounted.run("rmdir", [mounted.path("/records/2024/01")])
            #expect(full.status != 0)
            #expect(full.errorText.contains("not empty"), "\(full)")
            #expect(mounted.tree.calls == [
                .makeDirectory("/records/2025"), .makeDirectory("/records/2025/02"),
                .removeDirectory("/records/2025/02"), .removeDirectory("/records/2024/01"),
            ])
        }
    }

    @Test("rm hides the record at once and removes it from the tree after the removal delay")
    func remove() throws {
        try MountedTree.with(options: MountOptions(handlesSignals: false, removalDelay: 0.3)) { mounted in
            #expect(try mounted.run("rm", [mounted.path(InMemoryTree.recordPath)]).status == 0)
            #expect(try mounted.run("ls", [mounted.path("/records/2024/01")]).outputText.contains(".json") == false)
            #expect(try mounted.run("stat", [mounted.path(InMemoryTree.recordPath)]).status != 0)
            try expectEventually(within: 5) { mounted.tree.calls == [.removeFile(InMemoryTree.recordPath)] }
            #expect(!mounted.tree.exists(InMemoryTree.recordPath))
        }
    }

    @Test("rm then cp within the removal delay is one update, not a delete and a re-create")
    func removeThenCopy() throws {
        try MountedTree.with(options: MountOptions(handlesSignals: false, removalDelay: 30)) { mounted in
            let record = mounted.path(InMemoryTree.recordPath)
            let source = "/var/tmp/minutafs-source-\(UUID().uuidString).json"
            try Data(#"{"id": "5F1C4A2E-0B6D-4C8E-9A3F-2D7B1E6C8A90"}"#.utf8).write(to: URL(fileURLWithPath: source))
            defer { try? FileManager.default.removeItem(atPath: source) }
            #expect(try mounted.run("sh", ["-c", "rm \"$1\" && cp \"$2\" \"$1\"", "sh", record, source]).status == 0)
            #expect(mounted.tree.calls == [.write(InMemoryTree.recordPath, Array(#"{"id": "5F1C4A2E-0B6D-4C8E-9A3F-2D7B1E6C8A90"}"#.utf8))])
        }
    }

    @Test("rm, then the same file saved under another name within the removal delay, is an update: the removal is dropped")
    func removeThenCopyUnderAnotherName() throws {
        try MountedTree.with(options: MountOptions(handlesSignals: false, removalDelay: 30)) { mounted in
            let record = mounted.path(InMemoryTree.recordPath)
            let bytes = try mounted.tree.contents(ofPath: InMemoryTree.recordPath)
            #expect(mounted.tree.identity(ofContents: bytes, atPath: InMemoryTree.recordPath) != nil)
            let source = "/var/tmp/minutafs-source-\(UUID().uuidString).json"
            try Data(bytes).write(to: URL(fileURLWithPath: source))
            defer { try? FileManager.default.removeItem(atPath: source) }
            let other = mounted.path("/records/2024/01/moved back.json")
            let moved = try mounted.run("sh", ["-c", "rm \"$1\" && cp \"$2\" \"$3\"", "sh", record, source, other])
            #expect(moved.status == 0, "\(moved)")
            #expect(mounted.tree.calls == [.write("/records/2024/01/moved back.json", bytes)])
            // The name unlinked shows the file again at once: the kernel is told it is back.
            #expect(try mounted.run("cat", [record]).outputText == String(decoding: bytes, as: UTF8.self))
            // Nothing is removed when the mount ends, when pending removals are carried out.
            #expect(mounted.unmountAndWait() != nil)
            #expect(mounted.tree.calls == [.write("/records/2024/01/moved back.json", bytes)])
            #expect(mounted.tree.exists(InMemoryTree.recordPath))
        }
    }

    @Test("rm, then another file saved under another name within the removal delay: the removal stays")
    func removeThenCopyOfAnotherFile() throws {
        try MountedTree.with(options: MountOptions(handlesSignals: false, removalDelay: 30)) { mounted in
            let other = mounted.path("/records/2024/01/another.json")
            let written = try mounted.run(
                "sh", ["-c", #"rm "$1" && printf '{"id": "0A6B1C2D-3E4F-4A5B-8C6D-7E8F9A0B1C2D"}' > "$2""#, "sh",
                       mounted.path(InMemoryTree.recordPath), other])
            #expect(written.status == 0, "\(written)")
            #expect(mounted.unmountAndWait() != nil)
            #expect(mounted.tree.calls.last == .removeFile(InMemoryTree.recordPath), "\(mounted.tree.calls)")
            #expect(!mounted.tree.exists(InMemoryTree.recordPath))
        }
    }

    @Test("rm -r of a month folder removes its files from the tree before the folder")
    func removeRecursively() throws {
        try MountedTree.with(options: MountOptions(handlesSignals: false, removalDelay: 30)) { mounted in
            let result = try mounted.run("rm", ["-r", mounted.path("/records/2024/01")])
            #expect(result.status == 0, "\(result)")
            let calls = mounted.tree.calls
            #expect(calls.count == 3, "\(calls)")
            #expect(Set(calls.prefix(2)) == [.removeFile(InMemoryTree.recordPath), .removeFile(InMemoryTree.imagePath)])
            #expect(calls.last == .removeDirectory("/records/2024/01"))
            #expect(try mounted.run("ls", [mounted.path("/records/2024")]).outputText == "")
        }
    }

    @Test("a pending removal is carried out when the mount ends")
    func removalAtUnmount() throws {
        try MountedTree.with(options: MountOptions(handlesSignals: false, removalDelay: 30)) { mounted throws in
            #expect(try mounted.run("rm", [mounted.path(InMemoryTree.imagePath)]).status == 0)
            #expect(mounted.tree.calls.isEmpty)
            #expect(mounted.unmountAndWait() != nil)
            #expect(mounted.tree.calls == [.removeFile(InMemoryTree.imagePath)])
        }
    }

    @Test("grep -r and jq read through the mount")
    func searchAndQuery() throws {
        try MountedTree.with { mounted in
            let found = try mounted.run("grep", ["-r", "-l", "planning", mounted.path("/")])
            #expect(found.outputText == mounted.path(InMemoryTree.recordPath) + "\n", "\(found)")
            let tagName = try mounted.run("jq", ["-r", ".tags[0].name", mounted.path("/tags.json")])
            #expect(tagName.outputText == "Work\n")
            let comment = try mounted.run("jq", ["-r", ".comment", mounted.path(InMemoryTree.recordPath)])
            #expect(comment.outputText == "planning the sprint\n")
        }
    }

    @Test("inode numbers are stable, distinct, and the same in readdir and stat")
    func inodes() throws {
        try MountedTree.with { mounted in
            let paths = [InMemoryTree.recordPath, InMemoryTree.imagePath, "/tags.json", "/records/2024/01"].map(mounted.path)
            let first = try mounted.run("stat", ["-c", "%i %n"] + paths).outputText
            _ = try mounted.run("cat", [paths[0]])
            let second = try mounted.run("stat", ["-c", "%i %n"] + paths).outputText
            #expect(first == second)
            let numbers = first.split(separator: "\n").map { $0.split(separator: " ")[0] }
            #expect(Set(numbers).count == paths.count)
            #expect(try mounted.run("stat", ["-c", "%i", mounted.mountPoint]).outputText == "1\n")
            // ls -i reads d_ino from readdir (or readdirplus).
            let listed = try mounted.run("ls", ["-i", mounted.path("/records/2024/01")]).outputText
            for line in listed.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1)
                let stat = try mounted.run("stat", ["-c", "%i", mounted.path("/records/2024/01/" + parts[1])])
                #expect(stat.outputText == parts[0] + "\n")
            }
        }
    }

    @Test("extended attributes: get, list, ENODATA for a missing name, ERANGE for a short buffer")
    func extendedAttributes() throws {
        try MountedTree.with { mounted in
            let script = """
                import ctypes, os, sys
                path = sys.argv[1]
                print(os.getxattr(path, "user.minutafs.id").decode())
                print(os.listxattr(path))
                try:
                    os.getxattr(path, "user.missing")
                except OSError as error:
                    print("errno", error.errno)
                libc = ctypes.CDLL(None, use_errno=True)
                buffer = ctypes.create_string_buffer(4)
                print(libc.getxattr(path.encode(), b"user.minutafs.id", None, 0))
                print(libc.getxattr(path.encode(), b"user.minutafs.id", buffer, 4), ctypes.get_errno())
                print(libc.listxattr(path.encode(), buffer, 4), ctypes.get_errno())
                print(os.listxattr(sys.argv[2]))
                """
            let result = try mounted.run(
                "python3", ["-c", script, mounted.path(InMemoryTree.recordPath), mounted.path("/tags.json")])
            #expect(result.status == 0, "\(result)")
            #expect(result.outputText == """
                \(InMemoryTree.recordID)
                ['user.minutafs.id']
                errno \(ENODATA)
                \(InMemoryTree.recordID.utf8.count)
                -1 \(ERANGE)
                -1 \(ERANGE)
                []

                """)
        }
    }
}
