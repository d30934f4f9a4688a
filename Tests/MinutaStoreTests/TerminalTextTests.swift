import MinutaStore
import Testing

/// SPEC section 9: "Text that commands print escapes control characters (a comment cannot drive the
/// terminal)": every control character and every bidirectional control is escaped the same way, so a
/// comment can neither move the cursor nor reorder what the terminal shows, and nothing is dropped.
struct TerminalTextTests {
    static let bidiControls: [UInt32] = [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C]

    @Test("tab, carriage return, escape, DEL, C1 and every bidirectional control print as \\u{XX}",
          arguments: [0x09, 0x0D, 0x0A, 0x1B, 0x7F, 0x9B] + bidiControls)
    func escapesEachControl(value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let hex = String(value, radix: 16, uppercase: true)
        #expect(TerminalText.escaped("a" + String(Character(scalar)) + "b") == "a\\u{\(hex)}b")
    }

    @Test("letters, right-to-left text and emoji are kept as they are")
    func keepsText() {
        for text in ["Zürich", "שלום עולם", "مرحبا", "家事 🚀", "a\u{200D}b"] {
            #expect(TerminalText.escaped(text) == text)
        }
    }

    /// A lone CR in a comment became a space in `report`'s tables while a tab showed as `\u{9}`;
    /// U+202E reversed the rest of the line on the terminal.
    @Test("the text report shows a comment's lone CR, tab and bidirectional overrides escaped, and its line breaks as spaces")
    func reportText() {
        let comment = "a\rb\tc\u{202E}d\u{2066}\ne\r\nf"
        let record = ReportRecord(id: "R", start: 1_705_309_200_000, end: 1_705_312_800_000, tagID: nil, comment: comment, imageCount: 0)
        let report = MonthReport(month: Month(year: 2024, month: 1)!, records: [record], tags: [], timeZone: .utc, now: 0)
        let text = ReportText.month(report)
        #expect(text.contains("a\\u{D}b\\u{9}c\\u{202E}d\\u{2066} e f"), "\(text)")
        #expect(!text.unicodeScalars.contains { Self.bidiControls.contains($0.value) || ($0.value < 0x20 && $0 != "\n") }, "\(text.debugDescription)")
    }
}
