import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files that are not regular files, put where a document or an image belongs (SPEC 5b: "No open in
/// the store ever blocks"), and a way to run a program against them that cannot hang the test.
public enum SpecialFile: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A named pipe: opening it for reading waits for a writer, unless opened non-blocking.
    case fifo
    /// A Unix domain socket: `open` fails with ENXIO.
    case socket
    /// The character device 1,3 (`/dev/null`'s numbers): opens and reads as empty.
    case device

    public var description: String { rawValue }

    /// Device 1,3 as `makedev(1, 3)` packs it (glibc's `makedev` is a macro Swift does not import):
    /// major in bits 8-19, minor in bits 0-7, for numbers this small.
    private static let nullDeviceNumber: dev_t = 1 << 8 | 3

    /// Makes one at `path` (nothing may be there).
    public func make(at path: String) throws {
        switch self {
        case .fifo:
            guard mkfifo(path, 0o644) == 0 else { throw FixtureError("mkfifo \(path): \(String(cString: strerror(errno)))") }
        case .device:
            guard mknod(path, S_IFCHR | 0o644, Self.nullDeviceNumber) == 0 else { throw FixtureError("mknod \(path): \(String(cString: strerror(errno)))") }
        case .socket:
            let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw FixtureError("socket: \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw FixtureError("\(path): too long for a socket") }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in bytes.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0 else { throw FixtureError("bind \(path): \(String(cString: strerror(errno)))") }
        }
    }

    /// Replaces the file at `path` with one of these.
    public func replace(_ path: String) throws {
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try make(at: path)
    }

    /// Lets a process blocked opening the FIFO at `path` go on: opening it for reading and writing never
    /// waits (Linux), and counts as the writer a blocked reader waits for.
    public static func releaseFIFO(at path: String) {
        let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        if descriptor >= 0 { close(descriptor) }
    }
}

/// What a program run under a deadline did.
public struct BoundedRun: Sendable {
    /// The exit status; 128 + the signal number when a signal ended it.
    public var status: Int32
    /// Standard output and standard error, together.
    public var output: String
    /// Whether the deadline passed with the program still running (it was then let go on, or killed).
    public var overran: Bool
}

/// Runs `arguments` (the program first) and waits for it up to `seconds`. A program still running
/// then is a program that hangs: `release` is called (to open the FIFOs it may wait on), then it is
/// killed if it still runs; `overran` says so. The test's own thread never waits without a bound.
public func runBounded(_ arguments: [String], within seconds: Double = 60, release: () -> Void = {}) throws -> BoundedRun {
    try withTemporaryDirectory { folder in
        let outputPath = folder + "/output"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        var overran = false
        if !eventually(within: seconds, every: 0.05, { !process.isRunning }) {
            overran = true
            release()
            if !eventually(within: 10, every: 0.05, { !process.isRunning }) { process.terminate() }
            // A process the kernel holds (state D) cannot be waited for: it is left behind.
            guard eventually(within: 10, every: 0.05, { !process.isRunning }) else {
                return BoundedRun(status: -1, output: String(decoding: try Fixtures.contents(ofFileAtPath: outputPath), as: UTF8.self), overran: true)
            }
        }
        process.waitUntilExit()
        return BoundedRun(
            status: process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus,
            output: String(decoding: try Fixtures.contents(ofFileAtPath: outputPath), as: UTF8.self), overran: overran)
    }
}
