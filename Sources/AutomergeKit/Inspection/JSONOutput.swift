/// Compact JSON text under construction, kept as UTF-8 bytes.
///
/// The inspection formats (typed JSON, conflict lines, change lines; see
/// `Tests/Fixtures/automerge/README.md`) are compact: no spaces, no newlines. Writing bytes and
/// making one `String` at the end keeps a dump of a large document linear in its size.
struct JSONOutput {
    private(set) var bytes: [UInt8] = []

    init() {}

    /// Appends text that is already valid JSON, such as `{"_uint":` or `,`.
    mutating func appendRaw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func appendRaw(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends `string` as a quoted JSON string, escaped as the fixtures' dumps are (`JSONString`;
    /// U+007F raw, as the reference writes it).
    mutating func appendString(_ string: String) {
        JSONString.append(string, to: &bytes, delete: .raw)
    }

    /// Appends a JSON integer: decimal digits, `-` for negative values.
    mutating func appendInteger(_ value: some BinaryInteger) {
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Appends the lowercase hexadecimal digits of `data`, two per byte, with no quotes.
    mutating func appendLowercaseHex(_ data: [UInt8]) {
        bytes.reserveCapacity(bytes.count + 2 * data.count)
        for byte in data {
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0x0F)])
        }
    }

    /// Appends `"hex"`: the lowercase hexadecimal digits of `data` as a JSON string.
    mutating func appendHexString(_ data: [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        appendLowercaseHex(data)
        bytes.append(UInt8(ascii: "\""))
    }

    /// The text written so far. The bytes are valid UTF-8 because every piece came from a `String`
    /// or from ASCII.
    func makeString() -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
