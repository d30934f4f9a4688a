/// A cursor over one line of the config file, reading the pieces of TOML minutafs takes: keys, table
/// headers, and a string value (basic, literal, or a bare path), each failure a ``ConfigError`` that
/// names the line and column.
struct ConfigLineReader {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    let number: Int
    let path: String

    init(line: Substring, number: Int, path: String) {
        scalars = Array(line.unicodeScalars)
        self.number = number
        self.path = path
    }

    func peek() -> Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }
    mutating func advance() { position += 1 }

    mutating func skipSpaces() {
        while let scalar = peek(), scalar == " " || scalar == "\t" { advance() }
    }

    func error(_ reason: String, at column: Int? = nil) -> ConfigError {
        ConfigError(path: path, line: number, column: (column ?? position) + 1, reason: reason)
    }

    /// After a value or a header: spaces, then nothing or a `#` comment.
    mutating func readLineEnd() throws(ConfigError) {
        skipSpaces()
        if let scalar = peek(), scalar != "#" {
            throw error("unexpected \"\(String(scalar))\" after the value (a comment begins with #)")
        }
    }

    /// `[table]` or `[[array]]`, then the end of the line; the name itself is not needed.
    mutating func readTableHeader() throws(ConfigError) {
        let start = position
        while let scalar = peek(), scalar != "]" { advance() }
        guard peek() == "]" else { throw error("unterminated table header (no closing ])", at: start) }
        while peek() == "]" { advance() }
        try readLineEnd()
    }

    /// A key: bare (`store`), quoted (`"store"`, `'store'`) or dotted (`a.b`), as its parts.
    mutating func readKey() throws(ConfigError) -> [String] {
        var parts: [String] = []
        while true {
            skipSpaces()
            switch peek() {
            case "\""?: parts.append(try readBasicString())
            case "'"?: parts.append(try readLiteralString())
            default:
                var bare = ""
                while let scalar = peek(), Self.isBareKey(scalar) { bare.unicodeScalars.append(scalar); advance() }
                guard !bare.isEmpty else {
                    throw error(peek().map { "expected a key, found \"\(String($0))\" (a line is `key = value`)" } ?? "expected a key")
                }
                parts.append(bare)
            }
            skipSpaces()
            guard peek() == "." else { return parts }
            advance()
        }
    }

    static func isBareKey(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
    }

    /// The value of a path key: a basic or literal string, or the older unquoted form (to a `#`).
    mutating func readPathValue() throws(ConfigError) -> String {
        let value: String
        switch peek() {
        case "\""?:
            if scalars[position...].starts(with: ["\"", "\"", "\""]) { throw error("a multi-line string (\"\"\") cannot be a path") }
            value = try readBasicString()
        case "'"?:
            if scalars[position...].starts(with: ["'", "'", "'"]) { throw error("a multi-line string (''') cannot be a path") }
            value = try readLiteralString()
        case nil, "#"?:
            throw error("no value after `=` (write the path in quotes: store = \"~/minuta\")")
        default:
            var bare = ""
            while let scalar = peek(), scalar != "#" { bare.unicodeScalars.append(scalar); advance() }
            while let last = bare.unicodeScalars.last, last == " " || last == "\t" { bare.unicodeScalars.removeLast() }
            return bare
        }
        try readLineEnd()
        guard !value.isEmpty else { throw error("the path is empty") }
        return value
    }

    /// `"..."` with TOML's escapes: `\b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX`.
    mutating func readBasicString() throws(ConfigError) -> String {
        let open = position
        advance()
        var result = ""
        while let scalar = peek() {
            advance()
            switch scalar {
            case "\"": return result
            case "\\":
                let escapeColumn = position - 1
                guard let escaped = peek() else { break }
                advance()
                switch escaped {
                case "b": result.unicodeScalars.append("\u{08}")
                case "t": result.unicodeScalars.append("\t")
                case "n": result.unicodeScalars.append("\n")
                case "f": result.unicodeScalars.append("\u{0C}")
                case "r": result.unicodeScalars.append("\r")
                case "\"": result.unicodeScalars.append("\"")
                case "\\": result.unicodeScalars.append("\\")
                case "u", "U":
                    let count = escaped == "u" ? 4 : 8
                    var hex = ""
                    for _ in 0..<count { if let digit = peek() { hex.unicodeScalars.append(digit); advance() } }
                    guard hex.unicodeScalars.count == count, let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) else {
                        throw error("\\\(String(escaped)) needs \(count) hex digits of a Unicode scalar value", at: escapeColumn)
                    }
                    result.unicodeScalars.append(decoded)
                default:
                    throw error("unknown escape \\\(String(escaped)) (write \\\\ for a backslash, or use '...' for no escapes)", at: escapeColumn)
                }
            default:
                if scalar.value < 0x20 && scalar != "\t" || scalar.value == 0x7F {
                    throw error("a control character in a string (write it as an escape)", at: position - 1)
                }
                result.unicodeScalars.append(scalar)
            }
        }
        throw error("unterminated string (no closing \")", at: open)
    }

    /// `'...'`: everything to the next `'`, no escapes.
    mutating func readLiteralString() throws(ConfigError) -> String {
        let open = position
        advance()
        var result = ""
        while let scalar = peek() {
            advance()
            if scalar == "'" { return result }
            if scalar.value < 0x20 && scalar != "\t" || scalar.value == 0x7F {
                throw error("a control character in a string", at: position - 1)
            }
            result.unicodeScalars.append(scalar)
        }
        throw error("unterminated string (no closing ')", at: open)
    }
}
