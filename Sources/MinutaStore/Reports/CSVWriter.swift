/// RFC 4180 text: fields separated by commas, each row ended by CRLF, a field quoted when it holds
/// a comma, a quote, CR or LF (quotes doubled inside), UTF-8 throughout.
public struct CSVWriter: Sendable {
    public private(set) var text = ""

    public init() {}

    public mutating func row(_ fields: [String]) {
        text += fields.map(Self.field).joined(separator: ",") + "\r\n"
    }

    public var bytes: [UInt8] { Array(text.utf8) }

    static func field(_ value: String) -> String {
        let needsQuotes = value.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 13 || $0 == 10 }
        guard needsQuotes else { return value }
        var quoted = "\""
        for character in value.unicodeScalars {
            if character == "\"" { quoted += "\"\"" } else { quoted.unicodeScalars.append(character) }
        }
        return quoted + "\""
    }
}
