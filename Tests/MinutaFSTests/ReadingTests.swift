import Foundation
import MinutaFS
import Testing

@Suite("Reading through the mount")
struct ReadingTests {
    @Test("ls -la lists every entry with its exact size")
    func listing() throws {
        try MountedTree.with { mounted in
            let top = try mounted.run("ls", ["-la", mounted.path("/")])
            #expect(top.status == 0, "\(top)")
            #expect(top.outputText.contains("tags.json"))
            #expect(top.outputText.contains("records"))
            #expect(top.outputText.contains(".minutafs"))

            let month = try mounted.run("ls", ["-la", "--time-style=+", mounted.path("/records/2024/01")])
            #expect(month.status == 0, "\(month)")
            let lines = month.outputText.split(separator: "\n")
            let recordLine = try #require(lines.first { $0.hasSuffix("2024-01-15_093000.json") })
            #expect(recordLine.hasPrefix("-rw-r--r--"))
            #expect(recordLine.split(separator: " ", omittingEmptySubsequences: true)[4] == "\(InMemoryTree.record.utf8.count)")
            let imageLine = try #require(lines.first { $0.hasSuffix("_0.jpg") })
            #expect(imageLine.split(separator: " ", omittingEmptySubsequences: true)[4] == "\(InMemoryTree.image.count)")
        }
    }

    @Test("cat shows the tree's bytes, and an image reads back byte for byte")
    func catFiles() throws {
        try MountedTree.with { mounted in
            let record = try mounted.run("cat", [mounted.path(InMemoryTree.recordPath)])
            #expect(record.status == 0)
            #expect(record.outputText == InMemoryTree.record)
            let image = try mounted.run("cat", [mounted.path(InMemoryTree.imagePath)])
            #expect(image.output == InMemoryTree.image)
        }
    }

    @Test("a 6 MB image copied in with cp is one write and reads back identical")
    func largeImage() throws {
        try MountedTree.with { mounted in
            let source = "/var/tmp/minutafs-image-\(UUID().uuidString).jpg"
            #expect(try ProgramResult.run("sh", ["-c", "head -c \(6 << 20) /dev/urandom > \(source)"], in: "/").status == 0)
            defer { try? FileManager.default.removeItem(atPath: source) }
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: source)))
            let path = "/records/2024/01/5F1C4A2E-0B6D-4C8E-9A3F-2D7B1E6C8A90_1.jpg"
            #expect(try mounted.run("cp", [source, mounted.path(path)]).status == 0)
            #expect(try mounted.run("cmp", [source, mounted.path(path)]).status == 0)
            #expect(mounted.tree.calls.count == 1)
            #expect(mounted.tree.bytes(at: path) == bytes)
            #expect(try mounted.run("stat", ["-c", "%s", mounted.path(path)]).outputText == "\(bytes.count)\n")
        }
    }

    @Test("df reports the mount")
    func fileSystemStatus() throws {
        try MountedTree.with { mounted in
            let result = try mounted.run("df", ["-P", mounted.mountPoint])
            #expect(result.status == 0, "\(result)")
            #expect(result.outputText.contains("minutafs"), "\(result)")
        }
    }
}
