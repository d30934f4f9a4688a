import Foundation
import Testing
import TestSupport

/// After a save in place (`open(O_TRUNC)`, write, close), `stat` and reads show the file as the mount
/// shows it, whether or not the mount drops the kernel's attributes of the file: it spares that notice
/// only when the kernel's are right (the file shows the bytes written, and no `stat` was answered from
/// the unsaved bytes meanwhile). The tree's times are whole seconds; a time with nanoseconds is the
/// handle's, from before the save.
@Suite(.serialized)
struct SaveAttributesMountTests {
    /// `path`'s size, modification time and bytes, each call checked.
    static func look(at path: String) throws -> (size: Int, seconds: Int, nanoseconds: Int, bytes: [UInt8]) {
        var info = stat()
        try #require(stat(path, &info) == 0, "stat \(path): \(String(cString: strerror(errno)))")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return (Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec, bytes)
    }

    /// Saves `bytes` at `path` in place; `between` runs with the descriptor after the write, before the close.
    static func save(_ bytes: [UInt8], at path: String, between: (Int32) throws -> Void = { _ in }) throws {
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        try #require(descriptor >= 0, "open \(path): \(String(cString: strerror(errno)))")
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        var betweenError: (any Error)?
        if written == bytes.count {
            do { try between(descriptor) } catch { betweenError = error }
        }
        let closed = close(descriptor)
        try #require(written == bytes.count, "write \(path): \(written) of \(bytes.count) bytes")
        try #require(closed == 0, "close \(path): \(String(cString: strerror(errno)))")
        if let betweenError { throw betweenError }
    }

    /// `jq FILTER` of `path`'s bytes (`jq .` lays JSON out as the mount does).
    static func jq(_ filter: String, _ path: String) throws -> [UInt8] {
        let run = try Shell.run("jq \"$q\" \"$f\"", environment: ["q": filter, "f": path])
        try #require(run.status == 0, "jq failed: \(run.output)")
        return Array(run.output.utf8)
    }

    /// Runs `body` with a temporary folder and the first record file of January of a fresh mount in
    /// it, given a comment first: `jq` keeps the keys in the order it reads them, so from then on its
    /// output is laid out as the mount shows the record.
    static func withRecord(_ body: (_ folder: String, _ file: String) throws -> Void) throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder, environment: ["XDG_STATE_HOME": folder + "/state"])
            let names = try FileManager.default.contentsOfDirectory(atPath: mounted.january).filter { $0.hasSuffix(".json") }.sorted()
            let file = mounted.january + "/" + (try #require(names.first))
            try save(try jq(".comment = \"first\"", file), at: file)
            try withExtendedLifetime(mounted) { try body(folder, file) }
        }
    }

    @Test("a save laid out as the mount shows it: stat shows its size and the tree's time, reads its bytes")
    func sameLayout() throws {
        try Self.withRecord { folder, file in
            for round in 1...3 {
                let new = try Self.jq(".comment = \"same layout \(round)\"", file)
                let before = Int(Date().timeIntervalSince1970)
                try Self.save(new, at: file)
                let after = try Self.look(at: file)
                #expect(after.bytes == new)
                #expect(after.size == new.count)
                #expect(after.nanoseconds == 0, "the time is the tree's, whole seconds")
                #expect(after.seconds >= before)
            }
        }
    }

    @Test("a save the mount lays out otherwise: stat and reads show the mount's layout at once")
    func otherLayout() throws {
        try Self.withRecord { folder, file in
            // The record with a new comment as the mount lays it out, and the same on one line (`jq -c`).
            let pretty = try Self.jq(".comment = \"one line\"", file)
            let scratch = folder + "/pretty.json"
            try Data(pretty).write(to: URL(fileURLWithPath: scratch))
            let run = try Shell.run("jq -c . \"$f\"", environment: ["f": scratch])
            try #require(run.status == 0, "jq -c failed: \(run.output)")
            let oneLine = Array(run.output.utf8)
            #expect(oneLine.count < pretty.count)
            try Self.save(oneLine, at: file)
            let after = try Self.look(at: file)
            #expect(after.bytes == pretty, "\(String(decoding: after.bytes, as: UTF8.self))")
            #expect(after.size == pretty.count)
        }
    }

    @Test("a stat between the write and the close (answered from the unsaved bytes) does not outlive the save")
    func statBeforeClose() throws {
        try Self.withRecord { folder, file in
            for round in 1...3 {
                let new = try Self.jq(".comment = \"stat before close \(round)\"", file)
                var unsaved = stat()
                try Self.save(new, at: file) { descriptor in
                    try #require(fstat(descriptor, &unsaved) == 0)
                }
                #expect(Int(unsaved.st_size) == new.count)
                let after = try Self.look(at: file)
                #expect(after.bytes == new)
                #expect(after.nanoseconds == 0, "the tree's time, not the unsaved handle's (\(unsaved.st_mtim.tv_nsec) ns)")
            }
        }
    }

    @Test("a reader's descriptor opened before a save reads the saved version from its start, at its size")
    func readerOpenedBefore() throws {
        try Self.withRecord { folder, file in
            let reader = open(file, O_RDONLY)
            try #require(reader >= 0)
            defer { close(reader) }
            var old = [UInt8](repeating: 0, count: 1 << 16)
            let oldCount = pread(reader, &old, old.count, 0)
            try #require(oldCount > 0)
            let new = try Self.jq(".comment = \"a longer comment than the one the record had, saved in place\"", file)
            try #require(new.count != oldCount)
            try Self.save(new, at: file)
            var read = [UInt8](repeating: 0, count: 1 << 16)
            let count = pread(reader, &read, read.count, 0)
            try #require(count >= 0)
            #expect(Array(read[..<count]) == new)
            var info = stat()
            try #require(fstat(reader, &info) == 0)
            #expect(Int(info.st_size) == new.count)
        }
    }
}
