@testable import AutomergeKit
import Testing

/// LEB128 as the Automerge format uses it (strict: at most 64 bits, no redundant bytes). The byte
/// strings follow from the definition (7 bits a byte, low bits first, high bit set on all but the
/// last byte; signed numbers sign-extend from bit 6 of the last byte) and the worked examples of
/// the DWARF standard (section 7.6) and Wikipedia's LEB128 article (624485, -123456).
struct LEB128Tests {
    struct Unsigned: Sendable, CustomTestStringConvertible {
        var value: UInt64
        var bytes: [UInt8]
        var testDescription: String { "\(value)" }
    }

    struct Signed: Sendable, CustomTestStringConvertible {
        var value: Int64
        var bytes: [UInt8]
        var testDescription: String { "\(value)" }
    }

    static let unsigned: [Unsigned] = [
        Unsigned(value: 0, bytes: [0x00]),
        Unsigned(value: 2, bytes: [0x02]),
        Unsigned(value: 127, bytes: [0x7F]),
        Unsigned(value: 128, bytes: [0x80, 0x01]),
        Unsigned(value: 129, bytes: [0x81, 0x01]),
        Unsigned(value: 130, bytes: [0x82, 0x01]),
        Unsigned(value: 12857, bytes: [0xB9, 0x64]),
        Unsigned(value: 16383, bytes: [0xFF, 0x7F]),
        Unsigned(value: 16384, bytes: [0x80, 0x80, 0x01]),
        Unsigned(value: 624_485, bytes: [0xE5, 0x8E, 0x26]),
        Unsigned(value: UInt64(UInt32.max), bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
        Unsigned(value: 1 << 63, bytes: [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]),
        Unsigned(value: .max, bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ]

    static let signed: [Signed] = [
        Signed(value: 0, bytes: [0x00]),
        Signed(value: 2, bytes: [0x02]),
        Signed(value: -2, bytes: [0x7E]),
        Signed(value: 63, bytes: [0x3F]),
        Signed(value: -64, bytes: [0x40]),
        Signed(value: 64, bytes: [0xC0, 0x00]),
        Signed(value: -65, bytes: [0xBF, 0x7F]),
        Signed(value: 127, bytes: [0xFF, 0x00]),
        Signed(value: -127, bytes: [0x81, 0x7F]),
        Signed(value: 128, bytes: [0x80, 0x01]),
        Signed(value: -128, bytes: [0x80, 0x7F]),
        Signed(value: 129, bytes: [0x81, 0x01]),
        Signed(value: -129, bytes: [0xFF, 0x7E]),
        Signed(value: -123_456, bytes: [0xC0, 0xBB, 0x78]),
        Signed(value: .max, bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]),
        Signed(value: .min, bytes: [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7F]),
    ]

    @Test("unsigned LEB128 encodes to the defined bytes and decodes back", arguments: unsigned)
    func unsignedRoundTrip(row: Unsigned) throws {
        var output: [UInt8] = []
        output.appendUnsignedLEB128(row.value)
        #expect(output == row.bytes)
        #expect(LEB128.unsignedSize(row.value) == row.bytes.count)
        var reader = ByteReader(row.bytes)
        #expect(try reader.readUnsignedLEB128() == row.value)
        #expect(reader.isAtEnd)
    }

    @Test("signed LEB128 encodes to the defined bytes and decodes back", arguments: signed)
    func signedRoundTrip(row: Signed) throws {
        var output: [UInt8] = []
        output.appendSignedLEB128(row.value)
        #expect(output == row.bytes)
        var reader = ByteReader(row.bytes)
        #expect(try reader.readSignedLEB128() == row.value)
        #expect(reader.isAtEnd)
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var kind: AutomergeError.Kind
        var testDescription: String { name }
    }

    static let refusedUnsigned: [Refused] = [
        Refused(name: "empty", bytes: [], kind: .truncated),
        Refused(name: "continuation bit on the last byte", bytes: [0x80], kind: .truncated),
        Refused(name: "redundant zero byte (0 in two bytes)", bytes: [0x80, 0x00], kind: .invalidLEB128),
        Refused(name: "redundant zero byte (1 in three bytes)", bytes: [0x81, 0x80, 0x00], kind: .invalidLEB128),
        Refused(name: "65 bits", bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], kind: .invalidLEB128),
        Refused(name: "eleven bytes", bytes: [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], kind: .invalidLEB128),
    ]

    static let refusedSigned: [Refused] = [
        Refused(name: "empty", bytes: [], kind: .truncated),
        Refused(name: "continuation bit on the last byte", bytes: [0xFF], kind: .truncated),
        Refused(name: "0 in two bytes", bytes: [0x80, 0x00], kind: .invalidLEB128),
        Refused(name: "-1 in two bytes", bytes: [0xFF, 0x7F], kind: .invalidLEB128),
        Refused(name: "past Int64.max", bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], kind: .invalidLEB128),
        Refused(name: "below Int64.min", bytes: [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7E], kind: .invalidLEB128),
    ]

    @Test("malformed unsigned LEB128 is refused with a typed error", arguments: refusedUnsigned)
    func unsignedRefused(row: Refused) {
        var reader = ByteReader(row.bytes)
        let error = #expect(throws: AutomergeError.self) { _ = try reader.readUnsignedLEB128() }
        #expect(error?.kind == row.kind, "\(String(describing: error))")
    }

    @Test("malformed signed LEB128 is refused with a typed error", arguments: refusedSigned)
    func signedRefused(row: Refused) {
        var reader = ByteReader(row.bytes)
        let error = #expect(throws: AutomergeError.self) { _ = try reader.readSignedLEB128() }
        #expect(error?.kind == row.kind, "\(String(describing: error))")
    }
}

/// LEB128 inside column data, as the reference reads it there (the `leb128` crate): redundant bytes
/// are allowed, a tenth byte that would overflow is not. Chunk headers stay strict (above).
struct LenientLEB128Tests {
    @Test("overlong numbers in column data read as their value", arguments: [
        ([0x80, 0x00], 0), ([0x81, 0x80, 0x00], 1), ([0xFF, 0x7F], 16383),
        ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], UInt64.max),
    ] as [([UInt8], UInt64)])
    func unsigned(bytes: [UInt8], value: UInt64) throws {
        var reader = ByteReader(bytes)
        #expect(try reader.readLenientUnsignedLEB128() == value)
        #expect(reader.isAtEnd)
    }

    @Test("overlong signed numbers in column data read as their value", arguments: [
        ([0xFF, 0x7F], -1), ([0x80, 0x00], 0), ([0xC0, 0xFF, 0x7F], -64), ([0xBF, 0x80, 0x00], 63),
    ] as [([UInt8], Int64)])
    func signed(bytes: [UInt8], value: Int64) throws {
        var reader = ByteReader(bytes)
        #expect(try reader.readLenientSignedLEB128() == value)
        #expect(reader.isAtEnd)
    }

    @Test("a tenth byte that overflows is refused", arguments: [
        [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02],
        [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
    ] as [[UInt8]])
    func overflow(bytes: [UInt8]) {
        var unsigned = ByteReader(bytes)
        #expect(throws: AutomergeError.self) { try unsigned.readLenientUnsignedLEB128() }
        var signed = ByteReader(bytes)
        #expect(throws: AutomergeError.self) { try signed.readLenientSignedLEB128() }
    }
}
