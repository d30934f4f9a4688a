import FileTreeInterface
import Foundation
import MinutaFS
import Testing

/// Each program saves a record its own way (SPEC section 4); for each, the tree must see exactly one
/// `write` of the new bytes to the record's path: no remove, no rename, no scratch name.
@Suite("Saving with real programs")
struct EditorSaveTests {
    static let path = InMemoryTree.recordPath
    static let edited = InMemoryTree.record.replacing("planning the sprint", with: "reviewing the sprint")

    @Test("sed -i writes a temporary file and renames it onto the record")
    func sedInPlace() throws {
        try MountedTree.with { mounted in
            let result = try mounted.run("sed", ["-i", "s/planning/reviewing/", mounted.path(Self.path)])
            #expect(result.status == 0, "\(result)")
            try expectOneSave(in: mounted)
        }
    }

    @Test("python tempfile in the same folder, then os.replace")
    func pythonReplace() throws {
        try MountedTree.with { mounted in
            let script = """
                import os, sys, tempfile
                target = sys.argv[1]
                text = open(target).read().replace("planning", "reviewing")
                with tempfile.NamedTemporaryFile("w", dir=os.path.dirname(target), delete=False) as temporary:
                    temporary.write(text)
                    temporary.flush()
                    os.fsync(temporary.fileno())
                os.replace(temporary.name, target)
                """
            let result = try mounted.run("python3", ["-c", script, mounted.path(Self.path)])
            #expect(result.status == 0, "\(result)")
            try expectOneSave(in: mounted)
        }
    }

    @Test("python open(w) and write")
    func pythonOverwrite() throws {
        try MountedTree.with { mounted in
            let script = """
                import sys
                target = sys.argv[1]
                text = open(target).read().replace("planning", "reviewing")
                with open(target, "w") as file:
                    file.write(text[:40])
                    file.flush()
                    file.write(text[40:])
                """
            let result = try mounted.run("python3", ["-c", script, mounted.path(Self.path)])
            #expect(result.status == 0, "\(result)")
            try expectOneSave(in: mounted)
        }
    }

    @Test("python r+ writes into the middle: the rest of the file is kept")
    func pythonPartialOverwrite() throws {
        try MountedTree.with { mounted in
            let offset = try #require(InMemoryTree.record.utf8.firstRange(of: "planning".utf8)).lowerBound
            let script = """
                import sys
                with open(sys.argv[1], "r+b") as file:
                    file.seek(int(sys.argv[2]))
                    file.write(b"reviewing")
                """
            let utf8Offset = InMemoryTree.record.utf8.distance(from: InMemoryTree.record.utf8.startIndex, to: offset)
            let result = try mounted.run("python3", ["-c", script, mounted.path(Self.path), "\(utf8Offset)"])
            #expect(result.status == 0, "\(result)")
            // "planning" is 8 bytes, "reviewing" 9: the write overwrites one byte of what follows.
            var expected = Array(InMemoryTree.record.utf8)
            expected.replaceSubrange(utf8Offset..<(utf8Offset + 9), with: Array("reviewing".utf8))
            try expectOneSave(of: expected, in: mounted)
        }
    }

    @Test("cp onto the record")
    func copy() throws {
        try MountedTree.with { mounted in
            let source = try temporaryFile(containing: Self.edited)
            defer { try? FileManager.default.removeItem(atPath: source) }
            let result = try mounted.run("cp", [source, mounted.path(Self.path)])
            #expect(result.status == 0, "\(result)")
            try expectOneSave(in: mounted)
        }
    }

    @Test("mv from another file system onto the record")
    func moveIn() throws {
        try MountedTree.with { mounted in
            let source = try temporaryFile(containing: Self.edited)
            defer { try? FileManager.default.removeItem(atPath: source) }
            let result = try mounted.run("mv", [source, mounted.path(Self.path)])
            #expect(result.status == 0, "\(result)")
            try expectOneSave(in: mounted)
        }
    }

    @Test("rsync -a writes .name.XXXXXX, sets its times and mode, and renames it onto the record")
    func rsync() throws {
        try MountedTree.with { mounted in
            let source = try temporaryFile(containing: Self.edited)
            defer { try? FileManager.default.removeItem(atPath: source) }
            let result = try mounted.run("rsync", ["-a", source, mounted.path(Self.path)])
            #expect(result.status == 0, "\(result)")
            try expectOneSave(in: mounted)
        }
    }

    @Test("shell redirection > replaces the record")
    func redirect() throws {
        try MountedTree.with { mounted in
            let result = try mounted.run(
                "sh", ["-c", "cat > \"$1\"", "sh", mounted.path(Self.path)], input: Array(Self.edited.utf8))
            #expect(result.status == 0, "\(result)")
            try expectOneSave(in: mounted)
        }
    }

    @Test("shell redirection >> appends to an image")
    func append() throws {
        try MountedTree.with { mounted in
            let result = try mounted.run("sh", ["-c", "printf 'tail' >> \"$1\"", "sh", mounted.path(InMemoryTree.imagePath)])
            #expect(result.status == 0, "\(result)")
            try expectOneSave(of: InMemoryTree.image + Array("tail".utf8), to: InMemoryTree.imagePath, in: mounted)
        }
    }

    @Test("vim with its defaults: 4913 probe, swap file, backup by rename", arguments: [
        ["-u", "NONE"], ["-u", "DEFAULTS"], ["-u", "NONE", "-c", "set backupcopy=yes"],
        ["-u", "NONE", "-c", "set backupcopy=no"], ["-u", "DEFAULTS", "-c", "set backup"],
    ])
    func vim(options: [String]) throws {
        try MountedTree.with { mounted in
            let arguments = ["-Es", "-i", "NONE"] + options + ["-c", "%s/planning/reviewing/", "-c", "wq", mounted.path(Self.path)]
            let result = try mounted.run("vim", arguments)
            #expect(result.status == 0, "\(result)")
            try expectOneSave(in: mounted, allowingScratchFiles: options.contains("set backup"))
        }
    }

    @Test("nano, driven through a pseudo-terminal: replace, write out, exit")
    func nano() throws {
        try MountedTree.with { mounted in
            let result = try mounted.run("python3", ["-c", nanoDriverScript, mounted.path(Self.path), "planning", "reviewing"])
            #expect(result.status == 0, "\(result)")
            try expectOneSave(in: mounted)
        }
    }

    @Test("mv inside the mount renames the record in the tree")
    func moveInside() throws {
        try MountedTree.with { mounted in
            let destination = "/records/2024/01/2024-01-15_093000_copy.json"
            let result = try mounted.run("mv", [mounted.path(Self.path), mounted.path(destination)])
            #expect(result.status == 0, "\(result)")
            #expect(mounted.tree.calls == [.renameFile(Self.path, destination)])
            let listing = try mounted.run("ls", [mounted.path("/records/2024/01")])
            #expect(listing.outputText.split(separator: "\n").contains("2024-01-15_093000_copy.json"))
            #expect(!listing.outputText.split(separator: "\n").contains("2024-01-15_093000.json"))
        }
    }

    // MARK: Helpers

    /// The tree got exactly one call, a write of `expected` to `path`, and shows those bytes; the mount
    /// shows them too and no scratch file is left behind (unless the editor keeps a backup).
    private func expectOneSave(
        of expected: [UInt8] = Array(edited.utf8), to path: String = EditorSaveTests.path, in mounted: MountedTree,
        allowingScratchFiles: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(mounted.tree.calls == [.write(path, expected)], "calls: \(mounted.tree.calls)", sourceLocation: sourceLocation)
        #expect(mounted.tree.bytes(at: path) == expected, sourceLocation: sourceLocation)
        let shown = try mounted.run("cat", [mounted.path(path)])
        #expect(shown.output == expected, sourceLocation: sourceLocation)
        let size = try mounted.run("stat", ["-c", "%s", mounted.path(path)])
        #expect(size.outputText == "\(expected.count)\n", sourceLocation: sourceLocation)
        if !allowingScratchFiles {
            let treeNames = try mounted.tree.entries(inDirectory: TreePathForTests.parent(of: path)).map(\.name)
            let listing = try mounted.run("ls", ["-A", mounted.path(TreePathForTests.parent(of: path))])
            let shownNames = listing.outputText.split(separator: "\n").map(String.init)
            #expect(shownNames.sorted() == treeNames.sorted(), "scratch files left: \(shownNames)", sourceLocation: sourceLocation)
        }
    }

    private func temporaryFile(containing text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("minutafs-source-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

enum TreePathForTests {
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
