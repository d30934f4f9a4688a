@testable import AutomergeKit
import Testing

/// The column codecs of the Automerge binary format: run-length (`n value` for a run of n,
/// `-n v1 … vn` for n literal values, `0 n` for n nulls, counts in signed LEB128), delta (each
/// value is its difference from the previous, run-length encoded) and boolean (alternating run
/// lengths in unsigned LEB128, the first run counting `false`). The byte strings below are
/// written from that definition by hand.
struct ColumnCodecTests {
    static func decodeAll<Value: ColumnValue>(_ bytes: [UInt8], as type: Value.Type) throws -> [Value?] {
        var decoder = RLEDecoder<Value>(bytes, range: 0..<bytes.count)
        var values: [Value?] = []
        while !decoder.isAtEnd { values.append(try decoder.next()) }
        return values
    }

    static func encode<Value: ColumnValue>(_ values: [Value?]) -> [UInt8] {
        var encoder = RLEEncoder<Value>()
        for value in values { encoder.append(value) }
        return encoder.finish()
    }

    struct RLERow: Sendable, CustomTestStringConvertible {
        var name: String
        var values: [UInt64?]
        var bytes: [UInt8]
        var testDescription: String { name }
    }

    static let rleRows: [RLERow] = [
        RLERow(name: "a run", values: [7, 7, 7], bytes: [0x03, 0x07]),
        RLERow(name: "a lone value is a literal of one", values: [5], bytes: [0x7F, 0x05]),
        RLERow(name: "a literal run", values: [1, 2, 3], bytes: [0x7D, 0x01, 0x02, 0x03]),
        RLERow(name: "a run, then a literal", values: [1, 1, 1, 2, 3], bytes: [0x03, 0x01, 0x7E, 0x02, 0x03]),
        RLERow(name: "a literal, then a run", values: [2, 3, 1, 1], bytes: [0x7E, 0x02, 0x03, 0x02, 0x01]),
        RLERow(name: "nulls, then a value", values: [nil, nil, 5], bytes: [0x00, 0x02, 0x7F, 0x05]),
        RLERow(name: "a value, nulls, a run", values: [4, nil, 9, 9], bytes: [0x7F, 0x04, 0x00, 0x01, 0x02, 0x09]),
        RLERow(name: "a two-byte value", values: [300, 300], bytes: [0x02, 0xAC, 0x02]),
        RLERow(name: "the largest value", values: [.max], bytes: [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ]

    @Test("run-length columns decode to their values and encode back to the same bytes", arguments: rleRows)
    func rle(row: RLERow) throws {
        #expect(try Self.decodeAll(row.bytes, as: UInt64.self) == row.values)
        #expect(Self.encode(row.values) == row.bytes)
    }

    @Test("a column of only nulls is written as nothing, and nothing reads as no values")
    func onlyNulls() throws {
        #expect(Self.encode([nil, nil, nil] as [UInt64?]) == [])
        #expect(try Self.decodeAll([], as: UInt64.self) == [])
    }

    @Test("strings: length-prefixed UTF-8 in runs and literals")
    func strings() throws {
        let values: [ColumnString?] = [ColumnString("ab"), ColumnString("ab"), nil, ColumnString("é")]
        let bytes: [UInt8] = [0x02, 0x02, 0x61, 0x62, 0x00, 0x01, 0x7F, 0x02, 0xC3, 0xA9]
        #expect(try Self.decodeAll(bytes, as: ColumnString.self) == values)
        #expect(Self.encode(values) == bytes)
    }

    struct Broken: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var testDescription: String { name }
    }

    static let brokenRLE: [Broken] = [
        Broken(name: "a run without its value", bytes: [0x03]),
        Broken(name: "a literal cut short", bytes: [0x7D, 0x01, 0x02]),
        Broken(name: "a null run without its count", bytes: [0x00]),
        Broken(name: "a run length past Int32", bytes: [0x80, 0x80, 0x80, 0x80, 0x08, 0x01]),
        Broken(name: "a null run past Int32", bytes: [0x00, 0x80, 0x80, 0x80, 0x80, 0x08]),
    ]

    @Test("damaged run-length columns give a typed error", arguments: brokenRLE)
    func rleRefused(row: Broken) {
        #expect(throws: AutomergeError.self) { _ = try Self.decodeAll(row.bytes, as: UInt64.self) }
    }

    struct DeltaRow: Sendable, CustomTestStringConvertible {
        var name: String
        var values: [Int64?]
        var bytes: [UInt8]
        var testDescription: String { name }
    }

    static let deltaRows: [DeltaRow] = [
        DeltaRow(name: "counting up by one", values: [1, 2, 3, 4], bytes: [0x04, 0x01]),
        DeltaRow(name: "a start, a run of steps, a repeat", values: [10, 11, 12, 12], bytes: [0x7F, 0x0A, 0x02, 0x01, 0x7F, 0x00]),
        DeltaRow(name: "going down", values: [5, 3, 1], bytes: [0x7F, 0x05, 0x02, 0x7E]),
        DeltaRow(name: "nulls keep the previous value", values: [3, nil, 4], bytes: [0x7F, 0x03, 0x00, 0x01, 0x7F, 0x01]),
        DeltaRow(name: "from Int64.min to Int64.max", values: [.min, -1],
                 bytes: [0x7E, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]),
    ]

    @Test("delta columns decode to their values and encode back to the same bytes", arguments: deltaRows)
    func delta(row: DeltaRow) throws {
        var decoder = DeltaDecoder(row.bytes, range: 0..<row.bytes.count)
        var values: [Int64?] = []
        while !decoder.isAtEnd { values.append(try decoder.next()) }
        #expect(values == row.values)
        var encoder = DeltaEncoder()
        for value in row.values { encoder.append(value) }
        #expect(encoder.finish() == row.bytes)
    }

    @Test("a delta column whose sum passes an end of Int64 stays at that end, as the reference reads it", arguments: [
        // Int64.max, then +1.
        ([0x7E, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x01], [Int64.max, Int64.max]),
        // Int64.min, then -1.
        ([0x7E, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7F, 0x7F], [Int64.min, Int64.min]),
    ] as [([UInt8], [Int64])])
    func deltaOverflow(bytes: [UInt8], expected: [Int64]) throws {
        var decoder = DeltaDecoder(bytes, range: 0..<bytes.count)
        var values: [Int64?] = []
        while !decoder.isAtEnd { values.append(try decoder.next()) }
        #expect(values == expected)
    }

    struct BooleanRow: Sendable, CustomTestStringConvertible {
        var name: String
        var values: [Bool]
        var bytes: [UInt8]
        var testDescription: String { name }
    }

    static let booleanRows: [BooleanRow] = [
        BooleanRow(name: "empty", values: [], bytes: []),
        BooleanRow(name: "only false", values: [false, false], bytes: [0x02]),
        BooleanRow(name: "starting with true: an empty false run first", values: [true, true, false], bytes: [0x00, 0x02, 0x01]),
        BooleanRow(name: "alternating", values: [false, true, false, true], bytes: [0x01, 0x01, 0x01, 0x01]),
        BooleanRow(name: "a long run", values: Array(repeating: false, count: 200) + [true], bytes: [0xC8, 0x01, 0x01]),
    ]

    @Test("boolean columns decode to their values and encode back to the same bytes", arguments: booleanRows)
    func boolean(row: BooleanRow) throws {
        var decoder = BooleanDecoder(row.bytes, range: 0..<row.bytes.count)
        var values: [Bool] = []
        while !decoder.isAtEnd { if let value = try decoder.next() { values.append(value) } }
        #expect(values == row.values)
        var encoder = BooleanEncoder()
        for value in row.values { encoder.append(value) }
        #expect(encoder.finish() == row.bytes)
    }

    @Test("a column of only false can be left out; one with a true cannot")
    func maybeBoolean() {
        var onlyFalse = BooleanEncoder()
        for _ in 0..<3 { onlyFalse.append(false) }
        #expect(onlyFalse.finishOmittingAllFalse() == [])
        var withTrue = BooleanEncoder()
        withTrue.append(false)
        withTrue.append(true)
        #expect(withTrue.finishOmittingAllFalse() == [0x01, 0x01])
    }
}
