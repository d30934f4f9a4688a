import AutomergeKit

/// Writes JSON laid out exactly as `jq .` prints it: two-space indent, `"key": value`, one array
/// element per line, `[]` and `{}` when empty, UTF-8 unescaped, a trailing newline.
/// Fractional numbers use the typed JSON number format of SPEC section 2.
public enum JSONWriter {
    public static func pretty(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        write(value, indent: 0, to: &output)
        output.append(0x0A)
        return output
    }

    private static func write(_ value: JSONValue, indent: Int, to output: inout [UInt8]) {
        switch value {
        case .null: output += Array("null".utf8)
        case .bool(let flag): output += Array((flag ? "true" : "false").utf8)
        case .integer(let number): output += Array(String(number).utf8)
        case .unsignedInteger(let number): output += Array(String(number).utf8)
        case .number(let number): output += Array(TypedJSONFormat.f64(number).utf8)
        case .integerOutOfRange(let text): output += Array(text.utf8)
        case .string(let text): writeString(text, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output += Array("[]".utf8); return }
            output += Array("[\n".utf8)
            for (index, element) in elements.enumerated() {
                output += [UInt8](repeating: 0x20, count: indent + 2)
                write(element, indent: indent + 2, to: &output)
                output += Array((index == elements.count - 1 ? "\n" : ",\n").utf8)
            }
            output += [UInt8](repeating: 0x20, count: indent)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { output += Array("{}".utf8); return }
            output += Array("{\n".utf8)
            for (index, member) in members.enumerated() {
                output += [UInt8](repeating: 0x20, count: indent + 2)
                writeString(member.key, to: &output)
                output += Array(": ".utf8)
                write(member.value, indent: indent + 2, to: &output)
                output += Array((index == members.count - 1 ? "\n" : ",\n").utf8)
            }
            output += [UInt8](repeating: 0x20, count: indent)
            output.append(UInt8(ascii: "}"))
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
