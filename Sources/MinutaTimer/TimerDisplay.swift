import MinutaStore

/// How `minutafs now` shows running timers: a line per timer for a terminal, a `--format` template,
/// and the forms status bars read (waybar's JSON object, i3blocks' lines, polybar's line); see
/// `TimerDisplay+Bars.swift`.
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

    /// The timer started last: the one a one-line form (a bar, a prompt) shows, with "+N" for the others.
    var newest: TimerRecord? {
        timers.max { ($0.startTime ?? 0) < ($1.startTime ?? 0) }
    }

    /// `+1` when one other timer runs beside the newest, empty when none does.
    var others: String { timers.count > 1 ? "+" + String(timers.count - 1) : "" }

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

    /// The fields a template names, as `{name}` or as `%letter`.
    public static let templateFields: [(name: String, letter: Character)] = [
        ("tag", "t"), ("comment", "c"), ("elapsed", "e"), ("start", "s"), ("id", "i"), ("more", "m"),
    ]

    /// One line: the template filled in for the newest timer (`{tag}` or `%t`, `{comment}` `%c`,
    /// `{elapsed}` `%e` as `H:MM`, `{start}` `%s` in local time, `{id}` `%i`, `{more}` `%m` as "+1" when
    /// another timer runs, `%%` a percent sign). A template that does not place `{more}` gets " +N" at
    /// the end of its text (before trailing spaces) when others run. Store text goes through `escape`:
    /// by default control characters are escaped for a terminal and polybar's `%{` is defused, so one
    /// template serves a prompt and polybar. Empty when no timer runs.
    public func formatted(_ template: String, escape: (String) -> String = BarMarkup.polybar) -> String {
        guard let timer = newest else { return "" }
        var usesMore = false
        func value(_ letter: Character) -> String? {
            switch letter {
            case "t": escape(tagName(timer))
            case "c": escape(timer.comment ?? "")
            case "e": elapsed(timer)
            case "s": actions.local(timer.startTime ?? now, today: now)
            case "i": escape(timer.id ?? "")
            case "m": { usesMore = true; return others }()
            default: nil
            }
        }
        var output = ""
        var rest = Substring(template)
        while let character = rest.first {
            rest = rest.dropFirst()
            if character == "%", let letter = rest.first {
                if letter == "%" { output += "%"; rest = rest.dropFirst(); continue }
                if let filled = value(letter) { output += filled; rest = rest.dropFirst(); continue }
            } else if character == "{", let close = rest.firstIndex(of: "}"),
                      let field = Self.templateFields.first(where: { $0.name == rest[..<close] }), let filled = value(field.letter) {
                output += filled
                rest = rest[rest.index(after: close)...]
                continue
            }
            output.append(character)
        }
        if !usesMore && !others.isEmpty {
            let trailing = output.reversed().prefix { $0 == " " }.count
            output = String(output.dropLast(trailing)) + " " + others + String(repeating: " ", count: trailing)
        }
        return output
    }

    /// A JSON string literal on one line, every control character escaped.
    static func jsonString(_ text: String) -> String { JSONWriter.string(text) }
}
