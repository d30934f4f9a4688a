/// A cursor over bytes with typed, bounds-checked reads.
///
/// `read…` advances, `peek…` does not. Every read that would run past the end throws
/// ``AutomergeError/Kind/truncated`` with the absolute offset in the original input.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.position = 0
        self.end = bytes.count
    }

    init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    var isAtEnd: Bool { position >= end }
    var remainingCount: Int { end - position }

    mutating func readByte() throws(AutomergeError) -> UInt8 {
        guard position < end else { throw .truncated(at: position, needed: 1) }
        defer { position += 1 }
        return bytes[position]
    }

    /// Reads `count` bytes as a range into `bytes`, without copying.
    @inline(__always)
    mutating func readRange(count: Int) throws(AutomergeError) -> Range<Int> {
        guard count >= 0, count <= end - position else {
            throw .truncated(at: position, needed: count - (end - position))
        }
        defer { position += count }
        return position..<(position + count)
    }

    mutating func readBytes(count: Int) throws(AutomergeError) -> [UInt8] {
        let range = try readRange(count: count)
        return Array(bytes[range])
    }

    mutating func skip(_ count: Int) throws(AutomergeError) {
        _ = try readRange(count: count)
    }

    /// Unsigned LEB128 as the reference's strict parser reads it: at most 64 bits, no redundant
    /// trailing zero bytes.
    mutating func readUnsignedLEB128() throws(AutomergeError) -> UInt64 {
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte()
            if shift == 63 && byte > 1 {
                throw AutomergeError(.invalidLEB128, "LEB128 number does not fit in 64 bits", at: start)
            }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 {
                if shift > 0 && byte == 0 {
                    throw AutomergeError(.invalidLEB128, "LEB128 number is overlong (redundant zero byte)", at: start)
                }
                return result
            }
            shift += 7
            if shift > 63 {
                throw AutomergeError(.invalidLEB128, "LEB128 number does not fit in 64 bits", at: start)
            }
        }
    }

    /// Signed LEB128, strict in the same way as ``readUnsignedLEB128()``.
    mutating func readSignedLEB128() throws(AutomergeError) -> Int64 {
        let start = position
        var result: Int64 = 0
        var shift: Int64 = 0
        var previous: UInt8 = 0
        while true {
            let byte = try readByte()
            if shift == 63 && byte != 0 && byte != 0x7f {
                throw AutomergeError(.invalidLEB128, "signed LEB128 number does not fit in 64 bits", at: start)
            }
            result |= Int64(byte & 0x7f) << shift
            shift += 7
            if byte & 0x80 == 0 {
                if shift > 7 && ((byte == 0 && previous & 0x40 == 0) || (byte == 0x7f && previous & 0x40 != 0)) {
                    throw AutomergeError(.invalidLEB128, "signed LEB128 number is overlong", at: start)
                }
                if shift < 64 && byte & 0x40 != 0 {
                    result |= -1 << shift
                }
                return result
            }
            if shift > 63 {
                throw AutomergeError(.invalidLEB128, "signed LEB128 number does not fit in 64 bits", at: start)
            }
            previous = byte
        }
    }

    /// Unsigned LEB128 as the reference reads it inside column data (the `leb128` crate): redundant
    /// trailing zero bytes are allowed (`80 00` is 0); a tenth byte other than 0 or 1 overflows.
    ///
    /// Most numbers in columns (run lengths, deltas, actor indices) fit in one byte: that case is
    /// inlined where it is called, and only longer numbers make a call.
    @inline(__always)
    mutating func readLenientUnsignedLEB128() throws(AutomergeError) -> UInt64 {
        if position < end, bytes[position] < 0x80 {
            defer { position += 1 }
            return UInt64(bytes[position])
        }
        return try readLongLenientUnsignedLEB128()
    }

    @inline(never)
    private mutating func readLongLenientUnsignedLEB128() throws(AutomergeError) -> UInt64 {
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte()
            if shift == 63 && byte != 0 && byte != 1 {
                throw AutomergeError(.invalidLEB128, "LEB128 number does not fit in 64 bits", at: start)
            }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// Signed LEB128 as the reference reads it inside column data: redundant sign bytes are
    /// allowed (`ff 7f` is -1); a tenth byte other than 0 or 0x7f overflows.
    ///
    /// One byte (seven bits, bit 6 the sign) is inlined, as for unsigned numbers.
    @inline(__always)
    mutating func readLenientSignedLEB128() throws(AutomergeError) -> Int64 {
        if position < end, bytes[position] < 0x80 {
            defer { position += 1 }
            return Int64(Int8(bitPattern: bytes[position] << 1) >> 1)
        }
        return try readLongLenientSignedLEB128()
    }

    @inline(never)
    private mutating func readLongLenientSignedLEB128() throws(AutomergeError) -> Int64 {
        let start = position
        var result: Int64 = 0
        var shift: Int64 = 0
        while true {
            let byte = try readByte()
            if shift == 63 && byte != 0 && byte != 0x7f {
                throw AutomergeError(.invalidLEB128, "signed LEB128 number does not fit in 64 bits", at: start)
            }
            result |= Int64(byte & 0x7f) << shift
            shift += 7
            if byte & 0x80 == 0 {
                if shift < 64 && byte & 0x40 != 0 { result |= -1 << shift }
                return result
            }
        }
    }

    /// An unsigned LEB128 that must fit in `Int` and is used as a count or a length.
    mutating func readLength() throws(AutomergeError) -> Int {
        let start = position
        let value = try readUnsignedLEB128()
        guard value <= UInt64(Int32.max) else {
            throw AutomergeError(.invalidValue, "length \(value) is too large", at: start)
        }
        return Int(value)
    }

    /// ``readLength()`` read as column data is (``readLenientUnsignedLEB128()``).
    mutating func readLenientLength() throws(AutomergeError) -> Int {
        let start = position
        let value = try readLenientUnsignedLEB128()
        guard value <= UInt64(Int32.max) else {
            throw AutomergeError(.invalidValue, "length \(value) is too large", at: start)
        }
        return Int(value)
    }

    mutating func readUTF8(count: Int) throws(AutomergeError) -> String {
        let start = position
        let range = try readRange(count: count)
        guard let string = UTF8Validation.string(bytes, range) else {
            throw AutomergeError(.invalidValue, "string is not valid UTF-8", at: start)
        }
        return string
    }
}
