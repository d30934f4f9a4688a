import AutomergeKit

/// Writes JSON laid out exactly as `jq .` prints it: two-space indent, `"key": value`, one array
/// element per line, `[]` and `{}` when empty, UTF-8 unescaped, a trailing newline.
/// Fractional numbers use the typed JSON number format of SPEC section 2.
public enum JSONWriter {
    public static func pretty(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        // A record file is about 400 bytes: one allocation for most.
        output.reserveCapacity(512)
        write(value, indent: 0, to: &output)
        output.append(0x0A)
        return output
    }

    // Pieces are appended in place (`StaticString`s, digits, spaces): a record file is written with
    // no allocation but the output's (a month renders hundreds, and a save renders its record).
    private static func write(_ value: JSONValue, indent: Int, to output: inout [UInt8]) {
        switch value {
        case .null: append("null", to: &output)
        case .bool(let flag): append(flag ? "true" : "false", to: &output)
        case .integer(let number): appendDecimal(number.magnitude, negative: number < 0, to: &output)
        case .unsignedInteger(let number): appendDecimal(number, negative: false, to: &output)
        case .number(let number): output.append(contentsOf: TypedJSONFormat.f64(number).utf8)
        case .integerOutOfRange(let text): output.append(contentsOf: text.utf8)
        case .string(let text): writeString(text, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else { append("[]", to: &output); return }
            append("[\n", to: &output)
            for (index, element) in elements.enumerated() {
                appendSpaces(indent + 2, to: &output)
                write(element, indent: indent + 2, to: &output)
                append(index == elements.count - 1 ? "\n" : ",\n", to: &output)
            }
            appendSpaces(indent, to: &output)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { append("{}", to: &output); return }
            append("{\n", to: &output)
            for (index, member) in members.enumerated() {
                appendSpaces(indent + 2, to: &output)
                writeString(member.key, to: &output)
                append(": ", to: &output)
                write(member.value, indent: indent + 2, to: &output)
                append(index == members.count - 1 ? "\n" : ",\n", to: &output)
            }
            appendSpaces(indent, to: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func append(_ text: StaticString, to output: inout [UInt8]) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    private static func appendSpaces(_ count: Int, to output: inout [UInt8]) {
        for _ in 0..<count { output.append(0x20) }
    }

    /// `magnitude` in decimal, after a minus sign when `negative` (`Int64.min` included).
    static func appendDecimal(_ magnitude: UInt64, negative: Bool, to output: inout [UInt8]) {
        if negative { output.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64.max's 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = magnitude
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            output.append(contentsOf: buffer[(24 - count)...])
        }
    }

    /// `text` as a quoted JSON string as `jq .` writes it (`JSONString`, U+007F as `\u007f`).
    static func writeString(_ text: String, to output: inout [UInt8]) {
        JSONString.append(text, to: &output, delete: .escaped)
    }

    /// `text` as one quoted JSON string on one line: every control character escaped.
    public static func string(_ text: String) -> String {
        var output: [UInt8] = []
        writeString(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
