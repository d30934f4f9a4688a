import Foundation
import MinutaFS
import Testing

/// The mount holds a file's bytes in memory until it saves them, so it refuses to hold more than the
/// tree's limit for the path: `write` and `truncate` past it fail with `EFBIG`, nothing reaches the
/// tree, the file shows what the tree holds, and the mount keeps serving.
@Suite("Files larger than the tree takes")
struct FileSizeLimitTests {
    static let limit = 64 * 1024

    static func tree() -> InMemoryTree {
        let tree = InMemoryTree.sample()
        tree.setMaximumFileSize(limit)
        return tree
    }

    /// Runs python with the file's path as `sys.argv[1]`; prints what the script prints.
    func python(_ mounted: MountedTree, _ script: String, _ path: String) throws -> String {
        let result = try mounted.run("python3", ["-c", script, mounted.path(path)])
        #expect(result.status == 0, "\(result)")
        return result.outputText
    }

    @Test("a write past the limit fails with EFBIG, so does close; the tree never sees the bytes")
    func writePastLimit() throws {
        try MountedTree.with(Self.tree()) { mounted in
            let output = try python(mounted, """
                import os, sys
                fd = os.open(sys.argv[1], os.O_WRONLY | os.O_TRUNC)
                written = 0
                try:
                    while True:
                        written += os.write(fd, b'x' * 4096)
                except OSError as error:
                    print("write", error.errno, written)
                try:
                    os.write(fd, b'y')
                except OSError as error:
                    print("again", error.errno)
                try:
                    os.close(fd)
                    print("closed")
                except OSError as error:
                    print("close", error.errno)
                print(open(sys.argv[1]).read() == open(sys.argv[1]).read(), os.stat(sys.argv[1]).st_size)
                """, InMemoryTree.recordPath)
            #expect(output == "write \(EFBIG) \(Self.limit)\nagain \(EFBIG)\nclose \(EFBIG)\nTrue \(InMemoryTree.record.utf8.count)\n")
            #expect(mounted.tree.calls.isEmpty, "\(mounted.tree.calls)")
            #expect(mounted.tree.text(at: InMemoryTree.recordPath) == InMemoryTree.record)
            #expect(mounted.tree.oversizedWrites == [InMemoryTree.recordPath])
        }
    }

    @Test("pwrite at a huge offset and truncate to a huge size fail with EFBIG without allocating it")
    func hugeOffsets() throws {
        try MountedTree.with(Self.tree()) { mounted in
            let output = try python(mounted, """
                import os, sys
                fd = os.open(sys.argv[1], os.O_RDWR)
                for offset in (1 << 40, (1 << 63) - 2):
                    try:
                        os.pwrite(fd, b'x', offset)
                    except OSError as error:
                        print("pwrite", error.errno)
                fd2 = os.open(sys.argv[1], os.O_RDWR)
                try:
                    os.ftruncate(fd2, 100 << 30)
                except OSError as error:
                    print("ftruncate", error.errno)
                try:
                    os.truncate(sys.argv[1], 1 << 40)
                except OSError as error:
                    print("truncate", error.errno)
                print(os.stat(sys.argv[1]).st_size)
                """, InMemoryTree.recordPath)
            #expect(output == "pwrite \(EFBIG)\npwrite \(EFBIG)\nftruncate \(EFBIG)\ntruncate \(EFBIG)\n\(InMemoryTree.record.utf8.count)\n")
            #expect(mounted.tree.text(at: InMemoryTree.recordPath) == InMemoryTree.record)
            // Still serving.
            #expect(try mounted.run("cat", [mounted.path(InMemoryTree.recordPath)]).outputText == InMemoryTree.record)
        }
    }

    @Test("after EFBIG, truncating within the limit lets the same descriptor write and save again")
    func recoversAfterTruncation() throws {
        try MountedTree.with(Self.tree()) { mounted in
            let output = try python(mounted, """
                import os, sys
                fd = os.open(sys.argv[1], os.O_WRONLY | os.O_TRUNC)
                try:
                    os.write(fd, b'x' * (\(Self.limit) + 1))
                except OSError as error:
                    print("write", error.errno)
                os.ftruncate(fd, 0)
                os.pwrite(fd, b'{"id": "x"}', 0)
                os.fsync(fd)
                os.close(fd)
                print(open(sys.argv[1]).read())
                """, InMemoryTree.recordPath)
            #expect(output == "write \(EFBIG)\n{\"id\": \"x\"}\n")
            #expect(mounted.tree.calls == [.write(InMemoryTree.recordPath, Array(#"{"id": "x"}"#.utf8))])
        }
    }

    @Test("a new file refused as too large does not appear; a scratch file is held to the limit too")
    func newAndScratchFiles() throws {
        try MountedTree.with(Self.tree()) { mounted in
            let big = [UInt8](repeating: 0x41, count: Self.limit + 1)
            let copy = try mounted.run("cp", ["/dev/stdin", mounted.path("/records/2024/01/new.json")], input: big)
            #expect(copy.status != 0 && copy.errorText.contains("File too large"), "\(copy)")
            #expect(!FileManager.default.fileExists(atPath: mounted.path("/records/2024/01/new.json")))
            let scratch = try mounted.run("cp", ["/dev/stdin", mounted.path("/records/2024/01/.new.json.swp")], input: big)
            #expect(scratch.status != 0 && scratch.errorText.contains("File too large"), "\(scratch)")
            #expect(mounted.tree.calls.isEmpty, "\(mounted.tree.calls)")
        }
    }
}
