/// A value that run-length encoded columns can hold: how it is written and read. Numbers in
/// column data are read as the reference reads them there, allowing overlong LEB128.
protocol ColumnValue: Equatable {
    static func read(from reader: inout ByteReader) throws(AutomergeError) -> Self
    func write(to output: inout [UInt8])
}

extension UInt64: ColumnValue {
    static func read(from reader: inout ByteReader) throws(AutomergeError) -> UInt64 {
        try reader.readLenientUnsignedLEB128()
    }
    func write(to output: inout [UInt8]) { output.appendUnsignedLEB128(self) }
}

extension Int64: ColumnValue {
    static func read(from reader: inout ByteReader) throws(AutomergeError) -> Int64 {
        try reader.readLenientSignedLEB128()
    }
    func write(to output: inout [UInt8]) { output.appendSignedLEB128(self) }
}

/// A string in a column: a length-prefixed UTF-8 byte string, compared byte for byte.
///
/// Swift's `String` compares by canonical equivalence, which would merge keys such as "é" and
/// "e\u{301}"; the format and the reference compare bytes, so columns do too.
struct ColumnString: ColumnValue, Hashable {
    let utf8: [UInt8]

    init(_ string: String) { utf8 = Array(string.utf8) }
    init(utf8: [UInt8]) { self.utf8 = utf8 }

    var string: String { String(decoding: utf8, as: UTF8.self) }

    func hash(into hasher: inout Hasher) {
        utf8.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func read(from reader: inout ByteReader) throws(AutomergeError) -> ColumnString {
        let start = reader.position
        let count = try reader.readLenientLength()
        let range = try reader.readRange(count: count)
        let valid = reader.bytes.withUnsafeBufferPointer { UTF8Validation.isValid(UnsafeBufferPointer(rebasing: $0[range])) }
        guard valid else {
            throw AutomergeError(.invalidValue, "string in column is not valid UTF-8", at: start)
        }
        return ColumnString(utf8: Array(reader.bytes[range]))
    }

    func write(to output: inout [UInt8]) { output.appendPrefixed(utf8) }
}
