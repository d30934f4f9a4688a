extension JSONOutput {
    /// Appends `string` as a quoted JSON string, escaped as the fixtures' dumps are.
    ///
    /// `"` and `\` are escaped, the control characters with a short form use it (`\b` `\f` `\n`
    /// `\r` `\t`), the other characters below U+0020 become `\u00xx` with lowercase hex digits, and
    /// everything else is written raw: `/`, U+007F, U+2028 and all non-ASCII characters included.
    /// The string's Unicode scalars are written as they are, never normalized, so `"é"` and
    /// `"e\u{301}"` stay different.
    mutating func appendString(_ string: String) {
        appendRaw(byte: UInt8(ascii: "\""))
        // Every byte that needs escaping is ASCII, and UTF-8 never uses an ASCII byte inside a
        // multi-byte sequence, so the bytes can be escaped one by one.
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): appendRaw("\\\"")
            case UInt8(ascii: "\\"): appendRaw("\\\\")
            case 0x08: appendRaw("\\b")
            case 0x0C: appendRaw("\\f")
            case 0x0A: appendRaw("\\n")
            case 0x0D: appendRaw("\\r")
            case 0x09: appendRaw("\\t")
            case 0x00..<0x20:
                appendRaw("\\u00")
                appendLowercaseHex([byte])
            default:
                appendRaw(byte: byte)
            }
        }
        appendRaw(byte: UInt8(ascii: "\""))
    }
}
