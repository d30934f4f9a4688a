/// The one JSON string escaper, shared by the inspection dumps (`JSONOutput`) and the store's JSON
/// view (`JSONWriter` in MinutaStore).
///
/// `"` and `\` are escaped, the control characters with a short form use it (`\b` `\f` `\n` `\r`
/// `\t`), the other characters below U+0020 become `\u00xx` with lowercase hex digits, and
/// everything else is written raw (`/`, U+2028 and all non-ASCII characters included), except
/// U+007F, which depends on the format (`Delete`). The string's Unicode scalars are written as
/// they are, never normalized, so `"é"` and `"e\u{301}"` stay different.
public enum JSONString {
    /// How U+007F (DELETE) is written.
    public enum Delete: Sendable {
        /// Raw, as the reference implementation's dumps (the fixtures' `NAME.json`) write it.
        case raw
        /// As `\u007f`, as `jq .` writes it (the mounted JSON files follow `jq .`).
        case escaped
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `string` to `output` as a quoted JSON string.
    public static func append(_ string: String, to output: inout [UInt8], delete: Delete) {
        output.append(UInt8(ascii: "\""))
        // Most strings need no escape: then they are copied whole.
        if string.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != 0x7F }) {
            output.append(contentsOf: string.utf8)
            output.append(UInt8(ascii: "\""))
            return
        }
        // Every byte that needs escaping is ASCII, and UTF-8 never uses an ASCII byte inside a
        // multi-byte sequence, so the bytes can be escaped one by one.
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [0x5C, 0x22]
            case UInt8(ascii: "\\"): output += [0x5C, 0x5C]
            case 0x08: output += [0x5C, UInt8(ascii: "b")]
            case 0x0C: output += [0x5C, UInt8(ascii: "f")]
            case 0x0A: output += [0x5C, UInt8(ascii: "n")]
            case 0x0D: output += [0x5C, UInt8(ascii: "r")]
            case 0x09: output += [0x5C, UInt8(ascii: "t")]
            case 0x00..<0x20:
                appendUnicodeEscape(byte, to: &output)
            case 0x7F where delete == .escaped:
                appendUnicodeEscape(byte, to: &output)
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// `\u00xx` for an ASCII byte, lowercase hex digits.
    private static func appendUnicodeEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output += Array("\\u00".utf8)
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
    }
}
