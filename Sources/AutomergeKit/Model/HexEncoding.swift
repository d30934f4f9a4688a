enum HexEncoding {
    private static let digits = Array("0123456789abcdef".utf8)

    static func string<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var characters: [UInt8] = []
        characters.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            characters.append(digits[Int(byte >> 4)])
            characters.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: characters, as: UTF8.self)
    }

    static func bytes(_ string: String) -> [UInt8]? {
        let utf8 = Array(string.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            result.append(high << 4 | low)
            index += 2
        }
        return result
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Lexicographic order of byte strings, the order the format uses for actor ids, hashes and keys.
@inline(__always)
func bytesPrecede(_ left: [UInt8], _ right: [UInt8]) -> Bool {
    left.withUnsafeBufferPointer { left in
        right.withUnsafeBufferPointer { right in
            let common = min(left.count, right.count)
            var index = 0
            while index < common {
                if left[index] != right[index] { return left[index] < right[index] }
                index += 1
            }
            return left.count < right.count
        }
    }
}
