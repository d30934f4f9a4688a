import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Progress of a long step on standard error: a bar redrawn in place on a terminal, a plain line
/// every quarter of the way otherwise (a log file or a pipe gets no control characters).
final class ProgressDisplay {
    private let isTerminal: Bool
    private var phase = ""
    private var lastShown = -1
    private var drawn = false

    init(isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.isTerminal = isTerminal
    }

    /// Shows that `done` of `total` units of `phase` (a word such as "reading") are done.
    func update(_ phase: String, done: Int, total: Int, unit: String) {
        if phase != self.phase {
            finish()
            self.phase = phase
            lastShown = -1
        }
        guard total > 0 else { return }
        if isTerminal {
            let width = 30
            let filled = min(width, done * width / total)
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            let label = phase.padding(toLength: 10, withPad: " ", startingAt: 0)
            write("\r\(label)[\(bar)] \(done)/\(total) \(unit)")
            drawn = true
        } else {
            let quarter = done * 4 / total
            guard quarter > lastShown else { return }
            lastShown = quarter
            write("\(phase): \(done)/\(total) \(unit)\n")
        }
    }

    /// Ends the bar's line, so the next output starts on a fresh one.
    func finish() {
        if drawn { write("\n") }
        drawn = false
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
