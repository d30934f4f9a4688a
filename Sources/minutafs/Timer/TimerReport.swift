import Foundation
import MinutaStore
import MinutaTimer

/// What the timer commands print and parse the same way.
extension TimerPlace {
    /// `--at TEXT` as milliseconds at `now` (`now` itself without `--at`), or the command's failure.
    static func instant(_ text: String?, now: Int64, actions: TimerActions) throws(CommandFailure) -> Int64 {
        guard let text else { return now }
        return try running(actions.backend.placeDescription) { () throws(TimerError) in
            try TimerInstant.milliseconds(of: text, now: now, timeZone: actions.backend.timeZone)
        }
    }

    /// `stopped Work: comment at 17:45 after 1:23` (the time only when `showsTime`).
    static func stoppedLine(_ timer: TimerRecord, at end: Int64, now: Int64, tags: [TagSummary], actions: TimerActions, showsTime: Bool) -> String {
        let display = TimerDisplay(timers: [timer], tags: tags, now: end, actions: actions)
        return "stopped " + display.formatted("%t").trimmingCharacters(in: .newlines)
            + (timer.comment.map { ": " + TerminalText.escaped($0) } ?? "")
            + (showsTime ? " at " + actions.local(end, today: now) : "")
            + " after " + ReportDuration.hoursAndMinutes(end - (timer.startTime ?? end))  // rounded as reports round it
    }

    /// `started Work: comment at 09:30 in PLACE`.
    static func startedLine(tagName: String?, comment: String?, at start: Int64, now: Int64, actions: TimerActions) -> String {
        "started " + TerminalText.escaped(tagName ?? "(no tag)") + (comment.map { ": " + TerminalText.escaped($0) } ?? "")
            + " at " + actions.local(start, today: now) + " in " + actions.backend.placeDescription
    }

    /// The lines naming timers running for more than a day that were left running, on standard error.
    static func noteLeftRunning(_ records: [TimerAnswer.Record], now: Int64, actions: TimerActions) {
        for timer in records.compactMap(\.timer) {
            FileHandle.standardError.write(Data(("minutafs: " + actions.longRunningNote(timer, now: now) + "\n").utf8))
        }
    }
}
