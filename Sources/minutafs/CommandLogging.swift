import ArgumentParser
import Glibc
import Logging

/// `--verbose`, shared by the commands that log.
struct LoggingOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print debug output (what each step did) on standard error.")
    var verbose = false

    /// Sends swift-log's output to standard error, one line per message (`minutafs: warning: ...`),
    /// at `debug` with `--verbose` and `notice` otherwise, and returns the command's logger.
    ///
    /// SIGPIPE is ignored from then on: a background mount's standard error is a pipe to the
    /// `minutafs mount` that started it, which exits once the mount is up, and a log line written
    /// then must be dropped, not end the mount.
    func makeLogger() -> Logger {
        signal(SIGPIPE, SIG_IGN)
        let level: Logger.Level = verbose ? .debug : .notice
        LoggingSystem.bootstrap { label in
            var handler = LineLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "minutafs")
    }
}

/// Writes each message as one line on standard error: `minutafs: LEVEL: message key=value ...`.
struct LineLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .notice
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { _, new in new } }
        var line = "minutafs: \(event.level): \(event.message)"
        for (key, value) in all.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
        line = line.split(whereSeparator: \.isNewline).joined(separator: " ") + "\n"
        // write(2) and not FileHandle, which traps when standard error is closed; a line that
        // cannot be written is dropped.
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
