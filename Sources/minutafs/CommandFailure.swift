import ArgumentParser
import Foundation

/// Why a command could not do its work on one file: printed as the single line
/// `minutafs: PATH: cause` on standard error, and the command exits with status 1 (SPEC §6).
struct CommandFailure: Error, CustomStringConvertible {
    /// The file the failure is about, as the user named it.
    let path: String
    /// A one-line human message: what went wrong with that file.
    let cause: String
    /// Between the path and the cause: ": ", or " " when the cause goes on a sentence about the
    /// path ("m is a minutafs mount of ...").
    var separator = ": "

    /// `path: cause`, with the path once: a cause that already starts with it (an error passed
    /// on from a library or from the background mount process) is not prefixed again.
    var description: String {
        var cause = cause
        while cause.hasPrefix(path + ": ") { cause.removeFirst(path.count + 2) }
        return path + separator + cause
    }
}

extension ParsableCommand {
    /// Runs `body`; a `CommandFailure` it throws is printed as one line on standard error, handed to
    /// `onFailure` (a status bar prints its error form), and becomes exit status 1. Other errors go to
    /// ArgumentParser unchanged.
    func reportingFailures(_ body: () throws -> Void, onFailure: (String) -> Void = { _ in }) throws {
        try Self.reportingFailures(body, onFailure: onFailure)
    }

    /// `reportingFailures` for a command's work that runs without its parsed value (`Now.show`).
    static func reportingFailures(_ body: () throws -> Void, onFailure: (String) -> Void = { _ in }) throws {
        do {
            try body()
        } catch let failure as CommandFailure {
            // One line, whatever the cause text holds.
            let line = "minutafs: \(failure)".split(whereSeparator: \.isNewline).joined(separator: " ")
            FileHandle.standardError.write(Data((line + "\n").utf8))
            onFailure(line)
            throw ExitCode.failure
        }
    }
}
