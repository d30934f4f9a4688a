@testable import AutomergeKit
import Testing
import TestSupport

/// `RawDeflate` on its own: whatever it compresses, zlib's inflate gives back byte for byte, and
/// on the columns of the reference implementation's documents it writes exactly the bytes the
/// reference wrote (miniz_oxide at level 6).
struct RawDeflateTests {
    struct Input: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        /// Whether the input repeats within DEFLATE's 32 KiB window, so it must shrink to a quarter.
        var repeatsNearby = false
        var testDescription: String { "\(name) (\(bytes.count) bytes)" }
    }

    static let inputs: [Input] = {
        var random = SeededGenerator(seed: 12)
        let noise = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let text = Array(String(repeating: "{\"startTime\": \"2024-01-15T09:30:00Z\", \"comment\": \"Rückmeldung\"}\n", count: 2_000).utf8)
        return [
            Input(name: "empty", bytes: []),
            Input(name: "one byte", bytes: [0x41]),
            Input(name: "every byte value", bytes: (0...255).map { UInt8($0) }),
            Input(name: "one byte repeated", bytes: Array(repeating: 0x07, count: 70_000), repeatsNearby: true),
            Input(name: "text with long repeats", bytes: text, repeatsNearby: true),
            Input(name: "incompressible noise (stored blocks)", bytes: noise),
            Input(name: "noise, then itself again, farther back than the 32 KiB window", bytes: Array(noise[0..<40_000]) + Array(noise[0..<40_000])),
            Input(name: "a counting column", bytes: (0..<50_000).map { UInt8(truncatingIfNeeded: $0 / 7) }),
        ]
    }()

    @Test("zlib's inflate gives back what was compressed", arguments: inputs)
    func roundTrip(input: Input) throws {
        let compressed = RawDeflate.compress(input.bytes)
        #expect(try RawInflate.decompress(compressed[...], at: 0) == input.bytes)
        if input.repeatsNearby {
            #expect(compressed.count < input.bytes.count / 4, "repeats compress: \(compressed.count) bytes")
        }
    }

    @Test("one inflater, reset between streams, appends each stream after the last; a broken one adds nothing and the next still inflates")
    func oneInflaterForManyStreams() throws {
        var inflater = RawInflate()
        var output: [UInt8] = [0xAA]
        var expected: [UInt8] = [0xAA]
        for input in Self.inputs {
            try inflater.inflate(RawDeflate.compress(input.bytes)[...], appendingTo: &output, at: 0)
            expected += input.bytes
            #expect(output.count == expected.count, "after \(input.name)")
        }
        #expect(output == expected)

        let whole = RawDeflate.compress(Self.inputs[4].bytes)
        let cutShort = whole[0..<(whole.count / 2)]
        #expect(throws: AutomergeError.self) { try inflater.inflate(cutShort, appendingTo: &output, at: 7) }
        #expect(output == expected, "a stream cut short leaves what was inflated before it")
        var corrupt = whole
        corrupt[0] = 0xFF  // block type 3, which DEFLATE does not have
        #expect(throws: AutomergeError.self) { try inflater.inflate(corrupt[...], appendingTo: &output, at: 7) }
        #expect(output == expected)

        try inflater.inflate(whole[...], appendingTo: &output, at: 0)
        #expect(output == expected + Self.inputs[4].bytes)
    }

    @Test("empty input is a final empty static block, as miniz_oxide writes it")
    func emptyInput() {
        #expect(RawDeflate.compress([]) == [0x03, 0x00])
    }

    /// The deflated columns of every document chunk in `file`.
    static func deflatedColumns(of file: [UInt8]) throws -> [[UInt8]] {
        var reader = ByteReader(file)
        var columns: [[UInt8]] = []
        while !reader.isAtEnd {
            let chunk = try Chunk.read(from: &reader)
            guard chunk.type == .document else { continue }
            var contents = ByteReader(chunk.bytes, range: chunk.contents)
            for _ in 0..<(try contents.readLength()) { _ = try contents.readBytes(count: try contents.readLength()) }
            try contents.skip(try contents.readLength() * 32)
            let changeLayout = try ColumnLayout.readMetadata(from: &contents)
            let operationLayout = try ColumnLayout.readMetadata(from: &contents)
            for layout in [changeLayout, operationLayout] {
                let start = contents.position
                for column in layout.columns where column.specification.isDeflated {
                    columns.append(Array(chunk.bytes[(start + column.range.lowerBound)..<(start + column.range.upperBound)]))
                }
                try contents.skip(layout.totalLength)
            }
        }
        return columns
    }

    @Test("on the reference's deflated columns, the same bytes as the reference")
    func referenceColumns() throws {
        var checked = 0
        for name in try Fixtures.referenceDocumentNames() {
            for column in try Self.deflatedColumns(of: try Fixtures.bytes("\(name).automerge")) {
                let inflated = try RawInflate.decompress(column[...], at: 0)
                #expect(RawDeflate.compress(inflated) == column, "\(name): a column of \(inflated.count) bytes")
                checked += 1
            }
        }
        #expect(checked > 10, "only \(checked) deflated columns in the fixtures")
    }
}
