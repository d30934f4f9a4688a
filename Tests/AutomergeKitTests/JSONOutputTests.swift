@testable import AutomergeKit
import Testing

/// The number and string layout of the inspection formats (fixtures README, "Typed JSON").
struct JSONOutputTests {
    @Test("an f64 is written with the shortest digits, in exponent form only outside [1e-5, 1e16)", arguments: [
        (0.0, "0.0"), (-0.0, "-0.0"), (1.5, "1.5"), (-2.25, "-2.25"), (0.1, "0.1"), (100.0, "100.0"),
        (1e300, "1e300"), (-1e-300, "-1e-300"), (Double.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e308"),
        (1e16, "1e16"), (1.2345678901234568e16, "1.2345678901234568e16"), (-1e16, "-1e16"),
        (1000000000000000.0, "1000000000000000.0"), (9999999999999998.0, "9999999999999998.0"),
        (1e-7, "1e-7"), (1.5e-6, "1.5e-6"), (0.0001, "0.0001"), (0.00001, "0.00001"), (0.000015, "0.000015"),
        (9.999999999999999e-6, "9.999999999999999e-6"), (3.141592653589793, "3.141592653589793"),
        (123456.789, "123456.789"), (9007199254740993.0, "9007199254740992.0"), (12.0, "12.0"), (10.5, "10.5"),
        (Double.nan, "\"NaN\""), (Double.infinity, "\"inf\""), (-Double.infinity, "\"-inf\""),
    ] as [(Double, String)])
    func double(value: Double, expected: String) {
        var output = JSONOutput()
        output.appendDouble(value)
        #expect(output.makeString() == expected)
    }

    @Test("every finite f64 reads back exactly from what is written")
    func doubleRoundTrip() {
        // SplitMix64 over fixed seeds: the same 20,000 bit patterns on every run.
        var state: UInt64 = 0x5EED
        for _ in 0..<20_000 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var bits = state
            bits = (bits ^ (bits >> 30)) &* 0xBF58_476D_1CE4_E5B9
            bits = (bits ^ (bits >> 27)) &* 0x94D0_49BB_1331_11EB
            bits ^= bits >> 31
            let value = Double(bitPattern: bits)
            guard value.isFinite else { continue }
            var output = JSONOutput()
            output.appendDouble(value)
            let text = output.makeString()
            #expect(Double(text)?.bitPattern == value.bitPattern, "\(text) for \(value)")
            #expect(!text.contains("+") && !text.contains("e-0"), "\(text)")
        }
    }

    @Test("a string escapes quotes, backslashes and control characters and nothing else", arguments: [
        ("plain", #""plain""#),
        ("say \"hi\"", #""say \"hi\"""#),
        (#"C:\Users"#, #""C:\\Users""#),
        ("\u{0}\u{1}\u{7}\u{8}\t\n\u{B}\u{C}\r\u{1B}\u{1F}", #""\u0000\u0001\u0007\b\t\n\u000b\f\r\u001b\u001f""#),
        ("/ \u{7F} \u{2028} é e\u{301} 😀", "\"/ \u{7F} \u{2028} é e\u{301} 😀\""),
        ("", #""""#),
    ] as [(String, String)])
    func string(value: String, expected: String) {
        var output = JSONOutput()
        output.appendString(value)
        // Compared as bytes: `==` on String would accept a normalized "é" for "e\u{301}".
        #expect(output.bytes == Array(expected.utf8))
    }

    @Test("tagged scalars are written as the fixtures write them", arguments: [
        (.null, "null"), (.boolean(true), "true"), (.boolean(false), "false"),
        (.int(-9223372036854775808), "-9223372036854775808"), (.int(42), "42"),
        (.uint(18446744073709551615), #"{"_uint":18446744073709551615}"#),
        (.f64(100), #"{"_f64":100.0}"#), (.f64(.nan), #"{"_f64":"NaN"}"#),
        (.string("x"), #""x""#), (.bytes([0x00, 0xFF, 0x7F, 0xDE]), #"{"_bytes":"00ff7fde"}"#), (.bytes([]), #"{"_bytes":""}"#),
        (.counter(112), #"{"_counter":112}"#), (.timestamp(-86400001), #"{"_ts":-86400001}"#),
        (.unknown(typeCode: 14, bytes: [0xAB]), #"{"_unknown":{"bytes":"ab","type":14}}"#),
    ] as [(ScalarValue, String)])
    func scalar(value: ScalarValue, expected: String) {
        var output = JSONOutput()
        output.appendTypedScalar(value)
        #expect(output.makeString() == expected)
    }
}
