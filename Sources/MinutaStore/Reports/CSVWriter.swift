/// RFC 4180 text: fields separated by commas, each row ended by CRLF, a field quoted when it holds
/// a comma, a quote, CR or LF (quotes doubled inside), UTF-8 throughout.
///
/// A field a spreadsheet would run as a formula (one beginning with `=`, `+`, `-`, `@`, a tab or a
/// carriage return: `=HYPERLINK(…)`, `=cmd|' /C calc'!A0`) is neutralised as OWASP's CSV-injection
/// guidance says: a single quote `'` is put before it and the field is quoted, so the cell shows the
/// text. Every other field is written byte for byte (SPEC section 9).
public struct CSVWriter: Sendable {
    public private(set) var text = ""

    public init() {}

    public mutating func row(_ fields: [String]) {
        text += fields.map(Self.field).joined(separator: ",") + "\r\n"
    }

    public var bytes: [UInt8] { Array(text.utf8) }

    /// The first bytes that make a spreadsheet read a cell as a formula: `=`, `+`, `-`, `@`, tab, CR.
    static let formulaStarts: Set<UInt8> = [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 9, 13]

    static func field(_ value: String) -> String {
        let isFormula = value.utf8.first.map(formulaStarts.contains) ?? false
        let needsQuotes = isFormula || value.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 13 || $0 == 10 }
        guard needsQuotes else { return value }
        // Byte by byte: a quote is one byte in UTF-8 and never part of another character, and a
        // comment may be 16 MiB.
        var quoted: [UInt8] = [UInt8(ascii: "\"")]
        quoted.reserveCapacity(value.utf8.count + 16)
        if isFormula { quoted.append(UInt8(ascii: "'")) }
        for byte in value.utf8 {
            quoted.append(byte)
            if byte == UInt8(ascii: "\"") { quoted.append(byte) }
        }
        quoted.append(UInt8(ascii: "\""))
        return String(decoding: quoted, as: UTF8.self)
    }
}
