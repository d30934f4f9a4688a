import MinutaStore

/// How `minutafs now` shows running timers: a line for a prompt or a terminal, a `--format` template,
/// or the one-line JSON object waybar's and i3blocks' custom modules read.
public struct TimerDisplay: Sendable {
    public var timers: [TimerRecord]
    public var tags: [TagSummary]
    public var now: Int64
    public var actions: TimerActions

    public init(timers: [TimerRecord], tags: [TagSummary], now: Int64, actions: TimerActions) {
        self.timers = timers
        self.tags = tags
        self.now = now
        self.actions = actions
    }

    /// A timer running longer than this is flagged (a forgotten timer).
    public static let longRunning: Int64 = 86_400_000

    func tagName(_ timer: TimerRecord) -> String {
        guard let id = timer.tagID else { return "(no tag)" }
        return tags.first { RecordID($0.id) == RecordID(id) }?.name ?? "(unknown tag)"
    }

    func elapsed(_ timer: TimerRecord) -> String {
        TimerActions.elapsed(now - (timer.startTime ?? now))
    }

    func isLong(_ timer: TimerRecord) -> Bool { now - (timer.startTime ?? now) > Self.longRunning }

    /// `Work: fixing the sync bug 1:23` (and `(running 3 y 2 d, since …; id …)` past a day), one line
    /// per timer, control characters escaped.
    public var text: String {
        timers.map { timer in
            var line = TerminalText.escaped(tagName(timer))
            if let comment = timer.comment, !comment.isEmpty { line += ": " + TerminalText.escaped(comment) }
            line += " " + elapsed(timer)
            if isLong(timer) {
                line += " (running \(TimerActions.age(now - (timer.startTime ?? now))), since \(actions.local(timer.startTime ?? now, today: now)); id \(timer.id ?? timer.fileName))"
            }
            return line + "\n"
        }.joined()
    }

    /// The template with `%t` tag, `%c` comment, `%e` elapsed `H:MM`, `%s` start (local time), `%i` id,
    /// `%%` a percent sign, filled in for each timer (one line each); control characters escaped.
    public func formatted(_ template: String) -> String {
        timers.map { timer in
            var output = ""
            var iterator = template.makeIterator()
            while let character = iterator.next() {
                guard character == "%" else { output.append(character); continue }
                switch iterator.next() {
                case "t": output += TerminalText.escaped(tagName(timer))
                case "c": output += TerminalText.escaped(timer.comment ?? "")
                case "e": output += elapsed(timer)
                case "s": output += actions.local(timer.startTime ?? now, today: now)
                case "i": output += timer.id ?? ""
                case "%": output += "%"
                case let other?: output += "%" + String(other)
                case nil: output += "%"
                }
            }
            return output + "\n"
        }.joined()
    }

    /// One line of JSON: `{"text": "1:23 Work", "tooltip": "...", "class": "running"}`; with no timer,
    /// `{"text": "", "tooltip": "no timer running", "class": "idle"}`. `class` is `long` for a timer
    /// running more than a day.
    public var json: String {
        let text: String
        let tooltip: String
        let className: String
        if timers.isEmpty {
            (text, tooltip, className) = ("", "no timer running", "idle")
        } else {
            text = timers.map { elapsed($0) + " " + tagName($0) }.joined(separator: ", ")
            tooltip = timers.map { timer in
                var line = tagName(timer)
                if let comment = timer.comment, !comment.isEmpty { line += ": " + comment }
                return line + " (since " + actions.local(timer.startTime ?? now, today: now) + ")"
            }.joined(separator: "\n")
            className = timers.contains(where: isLong) ? "long" : "running"
        }
        return "{\"text\": \(Self.jsonString(text)), \"tooltip\": \(Self.jsonString(tooltip)), \"class\": \(Self.jsonString(className))}\n"
    }

    /// A JSON string literal on one line, every control character escaped.
    static func jsonString(_ text: String) -> String { JSONWriter.string(text) }
}
