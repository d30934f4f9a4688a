/// Values are stored in two columns: metadata (`length << 4 | type`, run-length encoded) and the
/// raw bytes of all values one after another.
enum ValueTypeCode {
    static let null: UInt64 = 0, falseValue: UInt64 = 1, trueValue: UInt64 = 2, unsigned: UInt64 = 3
    static let signed: UInt64 = 4, float: UInt64 = 5, string: UInt64 = 6, bytes: UInt64 = 7
    static let counter: UInt64 = 8, timestamp: UInt64 = 9
}

struct ValueEncoder {
    private(set) var metadata = RLEEncoder<UInt64>()
    private(set) var raw: [UInt8] = []

    init() {}

    mutating func append(_ value: ScalarValue) {
        metadata.appendValue(Self.appendRaw(value, to: &raw))
    }

    /// Appends a value's bytes to a raw value column and returns its metadata (`length << 4 | type`).
    @inline(__always)
    static func appendRaw(_ value: ScalarValue, to raw: inout [UInt8]) -> UInt64 {
        let start = raw.count
        let code: UInt64
        switch value {
        case .null: code = ValueTypeCode.null
        case .boolean(let flag): code = flag ? ValueTypeCode.trueValue : ValueTypeCode.falseValue
        case .uint(let number): raw.appendUnsignedLEB128(number); code = ValueTypeCode.unsigned
        case .int(let number): raw.appendSignedLEB128(number); code = ValueTypeCode.signed
        case .f64(let number):
            withUnsafeBytes(of: number.bitPattern.littleEndian) { raw.append(contentsOf: $0) }
            code = ValueTypeCode.float
        case .string(let text):
            // Through the string's contiguous bytes: appending its UTF-8 view goes element by element.
            var text = text
            text.withUTF8 { raw.append(contentsOf: $0) }
            code = ValueTypeCode.string
        case .bytes(let bytes): raw.append(contentsOf: bytes); code = ValueTypeCode.bytes
        case .counter(let number): raw.appendSignedLEB128(number); code = ValueTypeCode.counter
        case .timestamp(let number): raw.appendSignedLEB128(number); code = ValueTypeCode.timestamp
        case .unknown(let typeCode, let bytes): raw.append(contentsOf: bytes); code = UInt64(typeCode)
        }
        return UInt64(raw.count - start) << 4 | code
    }

    mutating func finish() -> (metadata: [UInt8], raw: [UInt8]) {
        (metadata.finish(), raw)
    }

    mutating func flush() { metadata.flush() }
    var metadataOutput: [UInt8] { metadata.output }

    mutating func reset() {
        metadata.reset()
        if !raw.isEmpty { raw.removeAll(keepingCapacity: true) }
    }
}

struct ValueDecoder {
    private var metadata: RLEDecoder<UInt64>
    private var raw: ByteReader
    private var recentStrings = StringValueCache()

    init(_ bytes: [UInt8], metadata: Range<Int>, raw: Range<Int>) {
        self.metadata = RLEDecoder(bytes, range: metadata)
        self.raw = ByteReader(bytes, range: raw)
    }

    var isAtEnd: Bool { metadata.isAtEnd }

    @inline(__always)
    mutating func next() throws(AutomergeError) -> ScalarValue? {
        guard let meta = try metadata.next() else { return nil }
        let length = meta >> 4
        let code = meta & 0x0f
        // Null and booleans have no bytes in the value column, whatever length their metadata
        // gives: the reference reads none for them, and the next value starts where it would.
        switch code {
        case ValueTypeCode.null: return .null
        case ValueTypeCode.falseValue: return .boolean(false)
        case ValueTypeCode.trueValue: return .boolean(true)
        default: break
        }
        let start = raw.position
        guard length <= UInt64(raw.remainingCount) else {
            throw AutomergeError(.invalidValue, "value of \(length) bytes runs past the value column", at: start)
        }
        let range = try raw.readRange(count: Int(length))
        switch code {
        case ValueTypeCode.unsigned:
            // As the reference reads a number value: the leb128 crate from the value's bytes, so
            // overlong encodings are read and bytes after the number are not.
            var reader = ByteReader(raw.bytes, range: range)
            return .uint(try reader.readLenientUnsignedLEB128())
        case ValueTypeCode.signed, ValueTypeCode.counter, ValueTypeCode.timestamp:
            var reader = ByteReader(raw.bytes, range: range)
            let number = try reader.readLenientSignedLEB128()
            switch code {
            case ValueTypeCode.signed: return .int(number)
            case ValueTypeCode.counter: return .counter(number)
            default: return .timestamp(number)
            }
        case ValueTypeCode.float:
            guard length == 8 else {
                throw AutomergeError(.invalidValue, "float value should have 8 bytes, had \(length)", at: start)
            }
            var bits: UInt64 = 0
            for (shift, byte) in raw.bytes[range].enumerated() { bits |= UInt64(byte) << (8 * UInt64(shift)) }
            return .f64(Double(bitPattern: bits))
        case ValueTypeCode.string:
            guard let text = recentStrings.string(raw.bytes, range) else {
                throw AutomergeError(.invalidValue, "string value is not valid UTF-8", at: start)
            }
            return .string(text)
        case ValueTypeCode.bytes:
            return .bytes(Array(raw.bytes[range]))
        default:
            return .unknown(typeCode: UInt8(code), bytes: Array(raw.bytes[range]))
        }
    }

}
