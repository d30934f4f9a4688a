import Testing

@testable import MinutaStore

/// `JSONWriter.pretty` lays a value out as `jq .` prints it: nesting, empty containers, every kind of
/// number, checked against the real `jq` (`JSONStringTests.jq`) and, for integers, against Swift's own
/// decimal form.
struct JSONWriterTests {
    static let integers: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 1_234_567_890, -987_654_321_012, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]

    @Test("integers are written in decimal, Int64.min and UInt64.max included")
    func integers() throws {
        var random = SystemRandomNumberGenerator()
        let samples = Self.integers + (0..<200).map { _ in Int64.random(in: .min ... .max, using: &random) }
        for number in samples {
            #expect(JSONWriter.pretty(.integer(number)) == Array((String(number) + "\n").utf8))
        }
        for number in [UInt64(Int64.max) + 1, UInt64.max, UInt64.max - 9] {
            #expect(JSONWriter.pretty(.unsignedInteger(number)) == Array((String(number) + "\n").utf8))
        }
    }

    @Test("nested arrays and objects, empty ones and every scalar, as jq . lays them out")
    func layoutLikeJQ() throws {
        let value = JSONValue.object([
            (key: "id", value: .string("A1")),
            // jq holds numbers as doubles: only integers it keeps exact (within 2^53) are compared here.
            (key: "numbers", value: .array(Self.integers.filter { $0.magnitude <= 1 << 53 }.map(JSONValue.integer) + [.number(1.5), .number(-0.25)])),
            (key: "empty array", value: .array([])),
            (key: "empty object", value: .object([])),
            (key: "flags", value: .array([.bool(true), .bool(false), .null])),
            (key: "nested", value: .object([(key: "deeper", value: .array([.object([(key: "a", value: .array([.array([])]))])]))])),
        ])
        let written = JSONWriter.pretty(value)
        #expect(try JSONStringTests.jq(written) == written, "\(String(decoding: written, as: UTF8.self))")
    }
}
