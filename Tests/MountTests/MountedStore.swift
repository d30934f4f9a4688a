import Foundation
import Testing
import TestSupport

/// A copy of the sample store mounted by the real `minutafs mount -f` for one test, and the tools
/// to drive programs against it. The mount is always taken down, even when the test fails.
final class MountedStore {
    let folder: String
    let store: String
    let mountPoint: String
    let process: Process
    let log: String

    /// Copies `app-2024` to `folder/store` (unless `copyingSample` is false: the store is already
    /// there), mounts it on `folder/mnt` (UTC names) with `options` (`-o`), waits for it.
    /// `environment` is added to the test process's for the mount (`XDG_STATE_HOME`, ...); `timeZone` is
    /// the store's (`--timezone`); `arguments` go to `minutafs mount` before the store (`--verbose`);
    /// `wrapper` runs the mount through another program (`setpriv ... --`).
    init(in folder: String, storeName: String = "store", copyingSample: Bool = true, options: [String] = [],
         arguments: [String] = [], environment: [String: String] = [:], timeZone: String = "UTC", wrapper: [String] = []) throws {
        self.folder = folder
        store = folder + "/" + storeName
        mountPoint = folder + "/mnt"
        log = folder + "/mount.log"
        if copyingSample {
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
            try Shell.run("chmod -R u+w '\(store)'")
        }
        if !FileManager.default.fileExists(atPath: mountPoint) {
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        }
        if !FileManager.default.fileExists(atPath: log) {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
        }
        process = Process()
        let mountArguments = ["mount", "-f", "--timezone", timeZone] + options.flatMap { ["-o", $0] } + arguments + [store, mountPoint]
        if wrapper.isEmpty {
            process.executableURL = URL(fileURLWithPath: try MinutafsBinary.path())
            process.arguments = mountArguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = wrapper + [try MinutafsBinary.path()] + mountArguments
        }
        process.standardInput = FileHandle.nullDevice
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        logHandle.seekToEndOfFile()
        process.standardOutput = logHandle
        process.standardError = logHandle
        try process.run()
        let process = process
        let appeared = eventually(within: 20) { Self.isMounted(mountPoint) || !process.isRunning } && Self.isMounted(mountPoint)
        guard appeared else {
            unmount()
            throw FixtureError("mount did not appear: \(String(decoding: (try? Fixtures.contents(ofFileAtPath: log)) ?? [], as: UTF8.self))")
        }
    }

    deinit { unmount() }

    /// Whether `unmount()` ran: a later call (the deinit) must not unmount a new mount at the same place.
    private var isUnmounted = false

    /// Unmounts (lazily if busy) and waits for the process; returns its exit status.
    @discardableResult
    func unmount() -> Int32? {
        if !isUnmounted && Self.isMounted(mountPoint) {
            _ = try? Shell.run("fusermount3 -u '\(mountPoint)' 2>/dev/null || fusermount3 -u -z '\(mountPoint)'")
        }
        let process = process
        _ = eventually(within: 10) { !process.isRunning }
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        isUnmounted = true
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    static func isMounted(_ path: String) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return false }
        return table.split(separator: "\n").contains { $0.split(separator: " ").count > 4 && $0.split(separator: " ")[4] == path }
    }

    /// `mnt/records/2024/01`.
    var january: String { mountPoint + "/records/2024/01" }

    func text(_ path: String) throws -> String {
        String(decoding: try Fixtures.contents(ofFileAtPath: path), as: UTF8.self)
    }

    /// The number on the line `LABEL: N` of `.minutafs/status` (`"failed merges"`; any words after
    /// the number, as in `documents loaded: 0 (each is loaded on first read)`, are ignored), or `nil`
    /// when the status cannot be read or has no such line.
    func statusCount(_ label: String) -> Int? {
        guard let status = try? text(mountPoint + "/.minutafs/status") else { return nil }
        let prefix = label + ": "
        return status.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count).prefix { $0.isNumber }) }
    }

    /// Whether `condition` holds once the mount has brought in what changed in its folder before this
    /// call: true as soon as it holds; otherwise its value once two more synchronization passes have
    /// finished (the second began after this call, and a pass is counted only when all of it is done;
    /// the kernel's caches it drops are given a few seconds more). Waits on the mount's own pass counter, not on a clock; the
    /// deadline only ends a wait on a mount that stopped passing at all.
    func withinTwoPasses(_ condition: () throws -> Bool) rethrows -> Bool {
        let start = statusCount("synchronization passes") ?? 0
        var passed = false
        let held = try eventually(within: 120, every: 0.05) {
            if try condition() { return true }
            passed = (statusCount("synchronization passes") ?? 0) >= start + 2
            return passed
        }
        if held && !passed { return true }
        // The kernel's caches are dropped by a queue of the mount's own, just after the pass that asked.
        return try eventually(within: 5, condition)
    }

}

/// Runs shell command lines for tests.
enum Shell {
    struct Result { var status: Int32; var output: String }

    @discardableResult
    static func run(_ command: String, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("minutafs-shell-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try? handle.close()
        return Result(status: process.terminationStatus, output: String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self))
    }
}
