import MinutaStore

/// The forms status bars read, each as the bar's own documentation describes it.
extension TimerDisplay {
    /// The time so far counted as 100 in waybar's `percentage`: a working day of 8 hours.
    public static let fullDay: Int64 = 8 * 3_600_000

    /// The state a bar styles by: `running`, `long` (a timer running more than a day), `idle`.
    public var state: String {
        timers.isEmpty ? "idle" : (timers.contains(where: isLong) ? "long" : "running")
    }

    /// One line of JSON for waybar's custom module (`"return-type": "json"`): `text` (the newest timer,
    /// `1:23 Work`, with `+1` when another runs), `alt` and `class` (``state``), `tooltip` (every
    /// timer, a line each), `percentage` (the newest timer's time so far against ``fullDay``, 0 to
    /// 100). `text` and `tooltip` are Pango markup, so store text is escaped (`&amp;`, `&lt;`). With no
    /// timer: `{"text": "", "alt": "idle", "tooltip": "no timer running", "class": "idle", "percentage": 0}`.
    public var json: String {
        guard let newest else {
            return Self.waybarObject(text: "", alt: "idle", tooltip: "no timer running", percentage: 0)
        }
        var text = elapsed(newest) + " " + BarMarkup.pango(tagName(newest))
        if !others.isEmpty { text += " " + others }
        let tooltip = timers.map { timer in
            var line = tagName(timer)
            if let comment = timer.comment, !comment.isEmpty { line += ": " + comment }
            return BarMarkup.pango(line) + " (since " + actions.local(timer.startTime ?? now, today: now) + ")"
        }.joined(separator: "\n")
        let percentage = min(100, max(0, now - (newest.startTime ?? now)) * 100 / Self.fullDay)
        return Self.waybarObject(text: text, alt: state, tooltip: tooltip, percentage: percentage)
    }

    /// waybar's object for a command that failed: class `error`, the message as the tooltip.
    public static func waybarError(_ message: String) -> String {
        waybarObject(text: "minutafs: error", alt: "error", tooltip: BarMarkup.pango(message), percentage: 0)
    }

    static func waybarObject(text: String, alt: String, tooltip: String, percentage: Int64) -> String {
        "{\"text\": \(jsonString(text)), \"alt\": \(jsonString(alt)), \"tooltip\": \(jsonString(tooltip)), "
            + "\"class\": \(jsonString(alt)), \"percentage\": \(percentage)}\n"
    }

    /// The lines an i3blocks block reads from its command (its default, plain format): `full_text`
    /// (`1:23 Work: sync bug`, `+1` when another timer runs), `short_text` (`1:23 Work`), and `color`
    /// only for a timer running more than a day. Nothing when no timer runs (the block is empty).
    public var i3blocks: String {
        guard let newest else { return "" }
        let more = others.isEmpty ? "" : " " + others
        var full = elapsed(newest) + " " + BarMarkup.i3blocks(tagName(newest))
        let short = full + more
        if let comment = newest.comment, !comment.isEmpty { full += ": " + BarMarkup.i3blocks(comment) }
        var lines = full + more + "\n" + short + "\n"
        if isLong(newest) { lines += Self.longColor + "\n" }
        return lines
    }

    /// i3blocks' lines for a command that failed: the message, `minutafs: error`, in red.
    public static func i3blocksError(_ message: String) -> String {
        BarMarkup.i3blocks(message) + "\nminutafs: error\n" + errorColor + "\n"
    }

    /// The colors i3blocks is given: amber for a forgotten timer, red for an error.
    public static let longColor = "#FFB000"
    public static let errorColor = "#FF5555"
}
