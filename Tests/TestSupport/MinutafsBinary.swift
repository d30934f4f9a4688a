import Foundation
import Synchronization

/// The built `minutafs` executable, run as a user would run it.
///
/// Found, in this order: at `$MINUTAFS_BINARY`; beside the running test executable (SwiftPM puts
/// both in the same products folder, such as `.build/x86_64-unknown-linux-gnu/debug/`); at
/// `.build/debug/minutafs` in the package. `swift test` may build only the test products, so run
/// `swift build` first (`make test` does).
public enum MinutafsBinary {
    /// The path of the executable.
    ///
    /// - Throws: `FixtureError` when there is none.
    public static func path() throws -> String {
        var candidates: [String] = []
        if let configured = ProcessInfo.processInfo.environment["MINUTAFS_BINARY"], !configured.isEmpty {
            candidates.append(configured)
        }
        if let testExecutable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(testExecutable.deletingLastPathComponent().appendingPathComponent("minutafs").path)
        }
        candidates.append(Fixtures.packageRoot + "/.build/debug/minutafs")
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw FixtureError("no minutafs executable at \(candidates.joined(separator: " or ")); run `swift build` first")
    }

    /// ``path()``, or a copy of it that every user can reach: tests that run `minutafs` as another user
    /// (`nobody`) need one, and a clone under a folder closed to others (root's home, a `mktemp -d`
    /// folder, mode 0700) has its build there. The copy is made once per test process, in a 0755
    /// folder under /tmp, and made again when the build changed.
    public static func pathForAnyUser() throws -> String {
        let built = try path()
        if isReachableByAnyone(built) { return built }
        return try anyUserCopy.withLock { copy throws -> String in
            let status = try FileManager.default.attributesOfItem(atPath: built)
            let stamp = "\(status[.size] ?? 0)-\((status[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
            if let copy, copy.stamp == stamp, FileManager.default.isExecutableFile(atPath: copy.path) { return copy.path }
            let folder = "/tmp/minutafs-binary-\(getpid())"
            try? FileManager.default.removeItem(atPath: folder)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
            let target = folder + "/minutafs"
            try FileManager.default.copyItem(atPath: built, toPath: target)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: target)
            copy = (target, stamp)
            return target
        }
    }

    private static let anyUserCopy = Mutex<(path: String, stamp: String)?>(nil)

    /// Whether every folder on the way to `path` lets others through and `path` lets them run it.
    static func isReachableByAnyone(_ path: String) -> Bool {
        var current = ""
        for component in path.split(separator: "/").dropLast() {
            current += "/" + component
            var info = stat()
            guard stat(current, &info) == 0, info.st_mode & 0o001 != 0 else { return false }
        }
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & 0o005 == 0o005
    }

    /// The subcommands `minutafs --help` lists (`mount`, `doc`, ...), each followed by its own
    /// subcommands (`doc compact`, `doc merge`).
    public static func commands() throws -> [String] {
        func subcommands(_ arguments: [String]) throws -> [String] {
            let help = try run(arguments + ["--help"]).outputText
            guard let list = help.range(of: "SUBCOMMANDS:\n") else { return [] }
            return help[list.upperBound...].split(separator: "\n").compactMap { line in
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { return nil }
                return String(name)
            }.filter { $0 != "See" }
        }
        return try subcommands([]).flatMap { name in
            [name] + (try subcommands([name])).map { "\(name) \($0)" }
        }
    }

    /// The built `minutafs-bench` executable: beside ``path()``.
    public static func benchPath() throws -> String {
        URL(fileURLWithPath: try path()).deletingLastPathComponent().appendingPathComponent("minutafs-bench").path
    }

    /// Runs `minutafs ARGUMENTS` (or `executable ARGUMENTS`), waits for it, and returns its exit status and output.
    ///
    /// Output goes through temporary files, not pipes, so a command that prints megabytes cannot
    /// block on a full pipe while the test waits for it to exit.
    /// `environment` is added to this process's environment; `directory` is the working folder;
    /// `wrapper` runs it through another program (`["setpriv", "--reuid=65534", ..., "--"]`);
    /// `executable` runs another program of the package (`benchPath()`) instead of `minutafs`.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil, wrapper: [String] = [],
        executable: String? = nil
    ) throws -> CommandResult {
        // Another user (a wrapper such as ``asNobody``) runs a copy every user can reach.
        let executable = try executable ?? (wrapper.isEmpty ? path() : pathForAnyUser())
        return try withTemporaryDirectory { folder in
            let outputPath = folder + "/stdout"
            let errorPath = folder + "/stderr"
            _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
            _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
            let error = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
            defer {
                try? output.close()
                try? error.close()
            }
            let process = Process()
            if wrapper.isEmpty {
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
            } else {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = wrapper + [executable] + arguments
            }
            if !environment.isEmpty {
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            }
            if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output
            process.standardError = error
            try process.run()
            process.waitUntilExit()
            return CommandResult(
                status: process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus,
                standardOutput: try Fixtures.contents(ofFileAtPath: outputPath),
                standardError: try Fixtures.contents(ofFileAtPath: errorPath)
            )
        }
    }
}

extension MinutafsBinary {
    /// `run(_:wrapper:)`'s wrapper that runs the command as `nobody` (needs root).
    public static let asNobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
}

/// What a finished `minutafs` run gave.
public struct CommandResult: Sendable {
    /// The exit status; 128 + the signal number when a signal ended it, as a shell reports it.
    public let status: Int32
    public let standardOutput: [UInt8]
    public let standardError: [UInt8]

    /// Standard output decoded as UTF-8 (invalid bytes become U+FFFD).
    public var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error decoded as UTF-8 (invalid bytes become U+FFFD).
    public var errorText: String { String(decoding: standardError, as: UTF8.self) }
}
