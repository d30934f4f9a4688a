import MinutaStore

/// Text from the store made safe for the status bar that shows it: a tag or comment is data, never
/// markup or a command to the bar.
public enum BarMarkup {
    /// Pango markup (waybar's `text` and `tooltip` unless its config says `"escape": true`): `&`, `<`,
    /// `>`, `"` and `'` as entities, so "Meetings & Calls" shows as written.
    public static func pango(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// polybar's script output: polybar reads `%{...}` as a formatting tag (a color, or a click action
    /// that runs a command) and has no escape for it, so a zero-width space is put between `%` and `{`;
    /// control characters are escaped as for a terminal.
    public static func polybar(_ text: String) -> String {
        var result = ""
        var afterPercent = false
        for scalar in TerminalText.escaped(text).unicodeScalars {
            if afterPercent && scalar == "{" { result.unicodeScalars.append("\u{200B}") }
            result.unicodeScalars.append(scalar)
            afterPercent = scalar == "%"
        }
        return result
    }

    /// One line for i3blocks' plain-text block form (a line per property): control characters, line
    /// breaks included, escaped.
    public static func i3blocks(_ text: String) -> String {
        TerminalText.escaped(text)
    }
}
