/// Text from a store made safe to print on a terminal: a comment or a tag name cannot move the cursor,
/// set the window title or clear the screen. Control characters (C0, DEL, C1) become `\u{XX}`-style
/// escapes; everything else is kept as it is.
public enum TerminalText {
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `"text"`, escaped, for messages that name what the user typed or the store holds.
    public static func quoted(_ text: String) -> String {
        "\"" + escaped(text) + "\""
    }
}
