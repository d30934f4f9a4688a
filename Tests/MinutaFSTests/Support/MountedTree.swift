import Foundation
import TestSupport
import MinutaFS
import Synchronization

/// A tree mounted for real (libfuse, `/dev/fuse`) on a fresh temporary directory for one test, served
/// on a thread of its own, and always unmounted at the end, even when the test fails.
final class MountedTree: Sendable {
    let tree: InMemoryTree
    let mountPoint: String
    let mount: FuseMount
    private let folder: String
    private let outcome = Mutex<Result<Void, MountError>?>(nil)

    /// Mounts `tree`, runs `body`, unmounts.
    @discardableResult
    static func with<Result>(
        _ tree: InMemoryTree = .sample(),
        options: MountOptions = MountOptions(handlesSignals: false),
        _ body: (MountedTree) throws -> Result
    ) throws -> Result {
        let mounted = try MountedTree(tree: tree, options: options)
        defer { mounted.tearDown() }
        return try body(mounted)
    }

    private init(tree: InMemoryTree, options: MountOptions) throws {
        _ = Self.staleMountsSwept
        self.tree = tree
        // Not under /tmp: vim's 'backupskip' skips backups there, and the tests want vim's real behaviour.
        folder = "/var/tmp/minutafs-fs-\(UUID().uuidString)"
        mountPoint = folder + "/mnt"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        do {
            mount = try FuseMount(tree: tree, mountPoint: mountPoint, options: options)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        let thread = Thread { [self] in
            let result = Result { () throws(MountError) in try mount.run() }
            outcome.withLock { $0 = result }
        }
        thread.name = "minutafs test mount"
        thread.start()
        let ended = { self.outcome.withLock { $0 } }
        _ = eventually(within: 10, every: 0.005) { (mount.isServing && Self.isMountPoint(mountPoint)) || ended() != nil }
        if let finished = ended() {
            tearDown()
            throw TestFailure("the mount ended before serving: \(finished)")
        }
        guard mount.isServing && Self.isMountPoint(mountPoint) else {
            tearDown()
            throw TestFailure("the mount did not start within 10 s")
        }
    }

    /// The path of `relative` (`/records/2024/01`) inside the mount.
    func path(_ relative: String) -> String {
        relative == "/" ? mountPoint : mountPoint + relative
    }

    /// Runs a program (found on `PATH`) and waits for it (30 s at most: then it is killed).
    @discardableResult
    func run(_ program: String, _ arguments: [String], input: [UInt8]? = nil, in directory: String? = nil) throws -> ProgramResult {
        try ProgramResult.run(program, arguments, input: input, in: directory ?? mountPoint)
    }

    /// Unmounts and waits (10 s at most) for `run()` to return; its result, or nil if it did not return.
    func unmountAndWait() -> Result<Void, MountError>? {
        mount.unmount()
        return waitForRunToReturn(within: 10)
    }

    /// `run()`'s result once it returned (nil while it runs or if it does not within `seconds`).
    func waitForRunToReturn(within seconds: Double) -> Result<Void, MountError>? {
        eventuallyValue(within: seconds, every: 0.005) { outcome.withLock { $0 } }
    }

    var isMounted: Bool {
        Self.isMountPoint(mountPoint)
    }

    private func tearDown() {
        _ = unmountAndWait()
        if Self.isMountPoint(mountPoint) || Self.isListedInMountTable(mountPoint) {
            _ = try? ProgramResult.run("fusermount3", ["-u", "-z", mountPoint], in: "/")
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Mounts a test process left behind when it died (their server gone: `ENOTCONN`), removed once per
    /// run. Live mounts of tests running in other processes are left alone.
    private static let staleMountsSwept: Void = {
        guard let table = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return }
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 1, fields[1].hasPrefix("/var/tmp/minutafs-fs-") else { continue }
            let mountPoint = String(fields[1])
            var status = stat()
            guard stat(mountPoint, &status) != 0 && errno == ENOTCONN else { continue }
            _ = try? ProgramResult.run("fusermount3", ["-u", "-z", mountPoint], in: "/")
            try? FileManager.default.removeItem(atPath: (mountPoint as NSString).deletingLastPathComponent)
        }
    }()

    /// Whether something other than the folder's own file system is mounted on `path`.
    static func isMountPoint(_ path: String) -> Bool {
        var status = stat()
        var parentStatus = stat()
        guard stat(path, &status) == 0 else { return errno == ENOTCONN }
        guard stat((path as NSString).deletingLastPathComponent, &parentStatus) == 0 else { return false }
        return status.st_dev != parentStatus.st_dev
    }

    static func isListedInMountTable(_ path: String) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return false }
        return table.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first == Substring(path) }
    }
}

/// What a finished program gave.
struct ProgramResult: Sendable, CustomStringConvertible {
    var status: Int32
    var output: [UInt8]
    var errorOutput: [UInt8]

    var outputText: String { String(decoding: output, as: UTF8.self) }
    var errorText: String { String(decoding: errorOutput, as: UTF8.self) }
    var description: String { "exit \(status); stdout: \(outputText.debugDescription); stderr: \(errorText.debugDescription)" }

    /// Runs `program` through `env` (so `PATH` finds it), with output through temporary files (a chatty
    /// program cannot block on a full pipe), killing it after `timeout` seconds.
    static func run(
        _ program: String, _ arguments: [String], input: [UInt8]? = nil, in directory: String, timeout: Double = 30
    ) throws -> ProgramResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("minutafs-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputURL = scratch.appendingPathComponent("stdout")
        let errorURL = scratch.appendingPathComponent("stderr")
        let inputURL = scratch.appendingPathComponent("stdin")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        try Data(input ?? []).write(to: inputURL)
        let outputHandle = try FileHandle(forWritingTo: outputURL)
        let errorHandle = try FileHandle(forWritingTo: errorURL)
        let inputHandle = try FileHandle(forReadingFrom: inputURL)
        defer {
            try? outputHandle.close()
            try? errorHandle.close()
            try? inputHandle.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = inputHandle
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
            _ = finished.wait(timeout: .now() + 5)
            throw TestFailure("\(program) \(arguments) did not finish within \(timeout) s")
        }
        return ProgramResult(
            status: process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus,
            output: Array(try Data(contentsOf: outputURL)),
            errorOutput: Array(try Data(contentsOf: errorURL)))
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
