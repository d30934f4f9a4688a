import MinutaStore
import Testing

/// The strict JSON parser: integers exact up to the bounds of Int64 and UInt64, duplicate keys
/// refused, and every error placed by line and column (1-based, columns in characters).
struct JSONParserTableTests {
    struct Number: Sendable, CustomTestStringConvertible {
        var text: String
        var value: JSONValue
        var testDescription: String { text }
    }

    static let numbers: [Number] = [
        Number(text: "0", value: .integer(0)),
        Number(text: "-0", value: .integer(0)),
        Number(text: "9223372036854775807", value: .integer(.max)),
        Number(text: "-9223372036854775808", value: .integer(.min)),
        Number(text: "9223372036854775808", value: .unsignedInteger(1 << 63)),
        Number(text: "18446744073709551615", value: .unsignedInteger(.max)),
        // Past UInt64 (and below Int64), an integer written without a fraction or exponent is kept as
        // written, so the store can refuse it rather than store a float.
        Number(text: "18446744073709551616", value: .integerOutOfRange("18446744073709551616")),
        Number(text: "-9223372036854775809", value: .integerOutOfRange("-9223372036854775809")),
        Number(text: "18446744073709551616.0", value: .number(18_446_744_073_709_551_616.0)),
        Number(text: "1.5", value: .number(1.5)),
        Number(text: "-2.5e3", value: .number(-2500)),
        Number(text: "1E2", value: .number(100)),
    ]

    @Test("numbers keep integers exact to the bounds of Int64 and UInt64", arguments: numbers)
    func number(row: Number) throws {
        #expect(try JSONParser.parse(Array(row.text.utf8)) == row.value)
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { name }
    }

    static let refused: [Refused] = [
        Refused(name: "a duplicate key, placed at its second occurrence", text: #"{"a": 1, "a": 2}"#, line: 1, column: 10, message: #"duplicate key "a""#),
        Refused(name: "a duplicate key on a later line", text: "{\n  \"start\": 1,\n  \"start\": 2\n}", line: 3, column: 3, message: #"duplicate key "start""#),
        Refused(name: "a duplicate key in a nested object", text: #"{"x": {"b": 1, "b": 1}}"#, line: 1, column: 16, message: #"duplicate key "b""#),
        Refused(name: "a trailing comma", text: "{\n  \"a\": 1,\n}", line: 3, column: 1, message: "trailing comma"),
        Refused(name: "a value that is not one", text: "[\n  1,\n  x]", line: 3, column: 3, message: "expected a value"),
        Refused(name: "columns count characters, not bytes", text: #"{"é": 01}"#, line: 1, column: 7, message: "leading zeros"),
        Refused(name: "the end of the file inside an array", text: "[1, 2", line: 1, column: 6, message: "unexpected end of file"),
        Refused(name: "text after the value", text: "{} {}", line: 1, column: 4, message: "unexpected text after"),
        Refused(name: "a number too large for a double", text: "1e400", line: 1, column: 1, message: "out of range"),
        Refused(name: "a control character in a string", text: "\"a\tb\"", line: 1, column: 3, message: "control character"),
    ]

    @Test("malformed JSON is refused with the line and column of the fault", arguments: refused)
    func refusedText(row: Refused) {
        let error = #expect(throws: JSONSyntaxError.self) { _ = try JSONParser.parse(Array(row.text.utf8)) }
        #expect(error?.line == row.line, "\(String(describing: error))")
        #expect(error?.column == row.column, "\(String(describing: error))")
        #expect(error?.message.contains(row.message) == true, "\(String(describing: error))")
    }

    @Test("keys that differ only in Unicode normalization are different keys")
    func normalizationDistinctKeys() throws {
        let text = "{\"\u{E9}\": 1, \"e\u{301}\": 2}"
        let value = try JSONParser.parse(Array(text.utf8))
        guard case .object(let members) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(members.count == 2)
    }
}
