/// Text from a store made safe to print on a terminal: a comment or a tag name cannot move the cursor,
/// set the window title, clear the screen or reorder what the terminal shows. Control characters (C0
/// with tab and carriage return, DEL, C1) and the bidirectional controls (the embeddings and overrides
/// U+202A-U+202E, the isolates U+2066-U+2069, the marks U+200E, U+200F and U+061C) all become
/// `\u{XX}`-style escapes, the same way; everything else is kept as it is.
public enum TerminalText {
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `scalar` is printed as an escape: a control character or a bidirectional control.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    /// `"text"`, escaped, for messages that name what the user typed or the store holds.
    public static func quoted(_ text: String) -> String {
        "\"" + escaped(text) + "\""
    }
}
