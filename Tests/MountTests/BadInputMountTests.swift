import Foundation
import MinutaStore
import Synchronization
import Testing
import TestSupport

/// The shared table of bad writes (`BadInput.all`), made through the real mount: `close` fails with
/// `EINVAL`, the reason is in `.minutafs/errors`, the bytes under `.minutafs/rejected/`, the file
/// shows the stored record again, and no byte of the backing folder changed (SPEC section 4).
@Suite(.serialized)
struct BadInputMountTests {
    /// Writes `bytes` to `path` as a program saving a file does (open with O_TRUNC, write, close);
    /// returns the errno of the first call that failed, or 0.
    static func save(_ bytes: [UInt8], to path: String, chunkSize: Int = 1 << 20) -> (errno: Int32, failedAt: String) {
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { return (errno, "open") }
        var written = 0
        while written < bytes.count {
            let count = bytes[written..<min(bytes.count, written + chunkSize)].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                let failure = errno
                close(descriptor)
                return (failure, "write")
            }
            written += count
        }
        return close(descriptor) == 0 ? (0, "") : (errno, "close")
    }

    /// The file a case writes to, in the mount.
    static func file(for input: BadInput, in mounted: MountedStore) throws -> String {
        switch input.target {
        case .tags: return mounted.mountPoint + "/tags.json"
        case .record: return mounted.january + "/" + BadInput.recordName
        case .billableRecord:
            let names = try FileManager.default.contentsOfDirectory(atPath: mounted.january).filter { $0.hasSuffix(".json") }
            let name = try #require(names.first { name in
                ((try? mounted.text(mounted.january + "/" + name)) ?? "").contains(BadInput.billableRecordID)
            })
            return mounted.january + "/" + name
        }
    }

    /// Peak resident memory of a process (`VmHWM` in `/proc/PID/status`), in KiB.
    static func peakMemory(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    @Test("every bad write fails close with EINVAL, is explained in .minutafs/errors and changes no byte")
    func table() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let errorsFile = mounted.mountPoint + "/.minutafs/errors"
            let before = try folderSnapshot(mounted.store)
            for (index, input) in BadInput.all.enumerated() {
                let file = try Self.file(for: input, in: mounted)
                let current = try Fixtures.contents(ofFileAtPath: file)
                let bytes = input.bytes(String(decoding: current, as: UTF8.self))
                let result = Self.save(bytes, to: file)
                #expect(result.errno == EINVAL && result.failedAt == "close", "\(input.name): \(result)")
                let errors = try mounted.text(errorsFile).split(separator: "\n")
                #expect(errors.count == index + 1, "\(input.name): \(errors)")
                #expect(errors.last?.contains(input.reason) == true, "\(input.name): \(errors.last ?? "")")
                #expect(try Fixtures.contents(ofFileAtPath: file) == current, "\(input.name)")
                let rejected = try FileManager.default.contentsOfDirectory(atPath: mounted.mountPoint + "/.minutafs/rejected").sorted()
                #expect(rejected.count == index + 1)
                let kept = try rejected.map { try Fixtures.contents(ofFileAtPath: mounted.mountPoint + "/.minutafs/rejected/" + $0) }
                #expect(kept.contains(bytes), "\(input.name): the refused bytes are kept")
            }
            #expect(try folderSnapshot(mounted.store) == before)
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/status").contains("rejected writes: \(BadInput.all.count)"))
            #expect(mounted.unmount() == 0)
        }
    }

    /// A 100 MiB save to a record and to tags.json: the mount refuses to hold more than 16 MiB, so
    /// `write` fails with `EFBIG` and the mount's peak memory grows by far less than 100 MiB.
    @Test("a 100 MiB save fails with EFBIG, memory stays bounded, nothing changes, reads keep working")
    func hundredMebibytes() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let before = try folderSnapshot(mounted.store)
            let record = mounted.january + "/" + BadInput.recordName
            let shown = try mounted.text(record)
            _ = try Shell.run("cat '\(mounted.mountPoint)'/records/2024/*/*.json > /dev/null")
            let peakBefore = try Self.peakMemory(of: mounted.process.processIdentifier)
            var huge = Array(#"{"comment": ""#.utf8)
            huge += [UInt8](repeating: UInt8(ascii: "a"), count: 100 << 20)
            huge += Array(#""}"#.utf8)
            let result = Self.save(huge, to: record)
            #expect(result.errno == EFBIG && result.failedAt == "write", "\(result)")
            // The mount held at most 16 MiB of it (32 MiB while its buffer doubled, plus what the
            // allocator's per-thread arenas keep), never 100: 48 MiB was exceeded once by 2 MiB.
            let growth = try Self.peakMemory(of: mounted.process.processIdentifier) - peakBefore
            #expect(growth < 64 << 10, "the mount's peak memory grew by \(growth) KiB")
            let tags = Self.save(huge, to: mounted.mountPoint + "/tags.json")
            #expect(tags.errno == EFBIG && tags.failedAt == "write", "\(tags)")
            #expect(try mounted.text(record) == shown)
            let errors = try mounted.text(mounted.mountPoint + "/.minutafs/errors")
            #expect(errors.contains("records/2024/01/\(BadInput.recordName): the file is larger than 16 MiB"), "\(errors)")
            #expect(errors.contains("tags.json: the file is larger than 16 MiB"), "\(errors)")
            #expect(try folderSnapshot(mounted.store) == before)
            // The mount still reads and writes.
            #expect(try Shell.run("jq -s length '\(mounted.mountPoint)'/records/2024/*/*.json").output == "702\n")
            let edited = shown.replacingOccurrences(of: "an Jürgen", with: "an Ana")
            #expect(Self.save(Array(edited.utf8), to: record).errno == 0)
            #expect(try mounted.text(record).contains("Rückmeldung an Ana"))
            #expect(mounted.unmount() == 0)
        }
    }
}

/// One open file, several descriptors: a program's and the copies `dup` or a forked child holds. Whichever
/// closes first saves; a refused save is recorded once, and every descriptor's close reports it.
@Suite(.serialized)
struct SharedDescriptorSaveTests {
    static let invalid = Array(#"{"startTime": "soon"}"#.utf8)

    static func openAndWrite(_ path: String, _ bytes: [UInt8]) throws -> Int32 {
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        try #require(descriptor >= 0, "open: \(errno)")
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        try #require(written == bytes.count, "write: \(errno)")
        return descriptor
    }

    static func closeResult(_ descriptor: Int32) -> Int32 { close(descriptor) == 0 ? 0 : errno }

    @Test("a refused save fails the close of every copy of the descriptor and is recorded once")
    func duplicateDescriptors() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let record = mounted.january + "/" + BadInput.recordName
            let shown = try mounted.text(record)
            let before = try folderSnapshot(mounted.store)

            let first = try Self.openAndWrite(record, Self.invalid)
            let copy = dup(first)
            try #require(copy >= 0)
            #expect(Self.closeResult(copy) == EINVAL)
            #expect(Self.closeResult(first) == EINVAL, "the second descriptor must not report a save that did not happen")
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/errors").split(separator: "\n").count == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: mounted.mountPoint + "/.minutafs/rejected").count == 1)

            // Both descriptors closing at the same moment, twenty times: one refusal each time, both told.
            for round in 1...20 {
                let descriptor = try Self.openAndWrite(record, Self.invalid)
                let other = dup(descriptor)
                try #require(other >= 0)
                let results = Mutex<[Int32]>([])
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    let result = Self.closeResult(index == 0 ? descriptor : other)
                    results.withLock { $0.append(result) }
                }
                #expect(results.withLock { $0 } == [EINVAL, EINVAL], "round \(round)")
                let errors = try mounted.text(mounted.mountPoint + "/.minutafs/errors").split(separator: "\n")
                #expect(errors.count == round + 1, "round \(round): \(errors.suffix(3))")
            }

            // A write after the refusal is a new save: it succeeds, and so do the other copies' closes.
            let fixed = Array(shown.replacingOccurrences(of: "an Jürgen", with: "an Ana").utf8)
            let descriptor = try Self.openAndWrite(record, Self.invalid)
            let other = dup(descriptor)
            #expect(Self.closeResult(other) == EINVAL)
            let rewritten = fixed.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            #expect(rewritten == fixed.count)
            #expect(ftruncate(descriptor, off_t(fixed.count)) == 0)
            #expect(Self.closeResult(descriptor) == 0)
            #expect(try mounted.text(record).contains("Rückmeldung an Ana"))
            #expect(try folderSnapshot(mounted.store) != before)
            #expect(mounted.unmount() == 0)
        }
    }
}
