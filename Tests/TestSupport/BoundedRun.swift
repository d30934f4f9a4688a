import Foundation

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
