/// Appends the format's primitive encodings to a byte array.
extension Array where Element == UInt8 {
    @inline(__always)
    mutating func appendUnsignedLEB128(_ value: UInt64) {
        if value < 0x80 {
            append(UInt8(truncatingIfNeeded: value))
            return
        }
        appendLongUnsignedLEB128(value)
    }

    private mutating func appendLongUnsignedLEB128(_ value: UInt64) {
        var value = value
        repeat {
            var byte = UInt8(value & 0x7f)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            append(byte)
        } while value != 0
    }

    @inline(__always)
    mutating func appendSignedLEB128(_ value: Int64) {
        if value >= -64 && value < 64 {
            append(UInt8(truncatingIfNeeded: value) & 0x7f)
            return
        }
        appendLongSignedLEB128(value)
    }

    private mutating func appendLongSignedLEB128(_ value: Int64) {
        var value = value
        while true {
            var byte = UInt8(truncatingIfNeeded: value) & 0x7f
            value >>= 6
            if value == 0 || value == -1 {
                append(byte)
                return
            }
            value >>= 1
            byte |= 0x80
            append(byte)
        }
    }

    mutating func appendLength(_ count: Int) {
        appendUnsignedLEB128(UInt64(count))
    }

    /// A length-prefixed byte string.
    mutating func appendPrefixed<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        appendLength(bytes.count)
        append(contentsOf: bytes)
    }
}

enum LEB128 {
    static func unsignedSize(_ value: UInt64) -> Int {
        var value = value >> 7
        var size = 1
        while value != 0 { value >>= 7; size += 1 }
        return size
    }
}
