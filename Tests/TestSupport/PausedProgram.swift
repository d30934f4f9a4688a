import Foundation

/// A program run with pipes that stops at a point of its own to let the test act in between: it prints
/// one line when it gets there, then waits for a line on its standard input.
public final class PausedProgram {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    /// What it printed that the test has not taken yet.
    private var unread: [UInt8] = []

    /// Starts `executable` with `arguments`.
    public init(_ executable: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// The first line it prints (without its newline), read whole however the pipe splits it; nil when
    /// it ended first.
    public func line() -> String? {
        while true {
            if let end = unread.firstIndex(of: UInt8(ascii: "\n")) {
                defer { unread.removeSubrange(...end) }
                return String(decoding: unread[..<end], as: UTF8.self)
            }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { return nil }
            unread += data
        }
    }

    /// Lets it go on past its pause, then waits for it to end: its exit status and the rest of what it printed.
    public func resume() throws -> (status: Int32, output: String) {
        try input.fileHandleForWriting.write(contentsOf: Data("\n".utf8))
        try input.fileHandleForWriting.close()
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: unread + rest, as: UTF8.self))
    }
}
