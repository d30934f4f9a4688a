import AutomergeKit
import Testing
import TestSupport

/// Damaged documents give a typed error or a valid document, never a crash, a hang or a
/// runaway allocation: every fixture truncated, bit-flipped and with inflated lengths.
struct MutationTests {
    static let documents = ["minuta-tags", "minuta-month", "types", "big-text", "minuta-month-compressed-changes", "three-way.merged"]

    /// `nil` when `bytes`, as they are, keep `LoadPromise` (the fuzz target's check): a typed error,
    /// or a document that re-saves, re-loads to the same heads and bytes, and merges.
    func broken(_ bytes: [UInt8]) -> LoadPromise.Broken? {
        LoadPromise.broken(by: bytes)
    }

    @Test("every truncation of a document is a typed error or a document", arguments: documents)
    func truncations(name: String) throws {
        let bytes = try Fixtures.bytes("\(name).automerge")
        let step = max(1, bytes.count / 400)
        for length in stride(from: 0, to: bytes.count, by: step) {
            #expect(broken(Array(bytes[0..<length])) == nil, "truncated to \(length)")
        }
        // A proper prefix of a single-chunk document is never a valid document.
        if name != "minuta-month-compressed-changes" {
            #expect(throws: AutomergeError.self) { try Document.load(Array(bytes.dropLast())) }
        }
    }

    @Test("bit flips anywhere, with the checksum recomputed, never crash", arguments: documents)
    func bitFlips(name: String) throws {
        let bytes = try Fixtures.bytes("\(name).automerge")
        var random = SeededGenerator(seed: UInt64(bytes.count))
        for _ in 0..<300 {
            var damaged = bytes
            let index = Int.random(in: 0..<damaged.count, using: &random)
            damaged[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            #expect(broken(damaged) == nil, "flip at \(index)")
            #expect(broken(Self.rechecksummed(damaged)) == nil, "flip at \(index), checksum recomputed")
        }
    }

    @Test("huge lengths and counts are refused without allocating them", arguments: documents)
    func hugeLengths(name: String) throws {
        let bytes = try Fixtures.bytes("\(name).automerge")
        var random = SeededGenerator(seed: 7)
        // Replace a LEB128 number somewhere in the chunk body with the largest 64-bit value.
        for _ in 0..<100 {
            let index = Int.random(in: 9..<bytes.count, using: &random)
            let damaged = Array(bytes[0..<index]) + [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01] + Array(bytes[(index + 1)...])
            #expect(broken(damaged) == nil, "huge number at \(index)")
            #expect(broken(Self.rechecksummed(damaged)) == nil, "huge number at \(index), checksum recomputed")
        }
    }

    /// Recomputes the checksum and length of the first chunk, so damage reaches the parsers.
    static func rechecksummed(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count > 10 else { return bytes }
        var reader = 9
        var length = 0, shift = 0
        while reader < bytes.count, shift < 63 {
            length |= Int(bytes[reader] & 0x7f) << shift
            shift += 7
            reader += 1
            if bytes[reader - 1] & 0x80 == 0 { break }
        }
        let body = Array(bytes[reader...])
        guard length <= body.count, length >= 0 else { return bytes }
        return Array(bytes[0..<4]) + ChunkTesting.rehashed(type: bytes[8], body: Array(body[0..<length]), rest: Array(body[length...]), prefix: Array(bytes[0..<4]))
    }
}
