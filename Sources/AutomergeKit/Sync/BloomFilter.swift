/// The probabilistic summary of change hashes a sync message's `have` carries: "the changes I
/// added since our last sync", so that the peer can send only what is missing.
///
/// Wire format and probe sequence as automerge 0.6.1's `sync/bloom.rs`: nothing when empty, else
/// the entry count, bits per entry and probe count as LEB128, then the bit array (the entry count
/// times the bits per entry, rounded up to bytes). 10 bits and 7 probes per entry: about 1% false
/// positives, and a false positive only costs one more round trip.
public struct BloomFilter: Sendable, Equatable {
    public let entryCount: UInt32
    public let bitsPerEntry: UInt32
    public let probeCount: UInt32
    public private(set) var bits: [UInt8]

    static let defaultBitsPerEntry: UInt32 = 10
    static let defaultProbeCount: UInt32 = 7

    /// The empty filter (contains nothing; encodes as no bytes).
    public init() {
        entryCount = 0
        bitsPerEntry = Self.defaultBitsPerEntry
        probeCount = Self.defaultProbeCount
        bits = []
    }

    /// A filter holding these hashes.
    public init(hashes: [ChangeHash]) {
        entryCount = UInt32(truncatingIfNeeded: hashes.count)
        bitsPerEntry = Self.defaultBitsPerEntry
        probeCount = Self.defaultProbeCount
        bits = [UInt8](repeating: 0, count: Self.byteCount(entries: entryCount, bitsPerEntry: bitsPerEntry))
        for hash in hashes {
            forEachProbe(of: hash) { probe in
                let index = Int(probe >> 3)
                if index < bits.count { bits[index] |= 1 << UInt8(probe & 7) }
                return true
            }
        }
    }

    init(entryCount: UInt32, bitsPerEntry: UInt32, probeCount: UInt32, bits: [UInt8]) {
        self.entryCount = entryCount
        self.bitsPerEntry = bitsPerEntry
        self.probeCount = probeCount
        self.bits = bits
    }

    /// Whether the hash may be in the filter (false: certainly not).
    public func contains(_ hash: ChangeHash) -> Bool {
        guard entryCount != 0 else { return false }
        // A received filter may declare entries but no bits (0 bits per entry), where the reference
        // divides by zero and stops; here it holds nothing, so the changes it would hide are sent.
        guard !bits.isEmpty else { return false }
        var present = true
        forEachProbe(of: hash) { probe in
            let index = Int(probe >> 3)
            if index < bits.count, bits[index] & (1 << UInt8(probe & 7)) == 0 { present = false }
            return present
        }
        return present
    }

    /// The bytes a sync message carries for this filter.
    public var encoded: [UInt8] {
        guard entryCount != 0 else { return [] }
        var output: [UInt8] = []
        output.appendUnsignedLEB128(UInt64(entryCount))
        output.appendUnsignedLEB128(UInt64(bitsPerEntry))
        output.appendUnsignedLEB128(UInt64(probeCount))
        output += bits
        return output
    }

    /// Reads a filter from the bytes a `have` carries for it (bytes past the bit array are ignored,
    /// as the reference ignores them).
    ///
    /// - Throws: ``AutomergeError`` for a count that is not a 32-bit LEB128 or a bit array shorter
    ///   than the counts say.
    static func decode(_ bytes: [UInt8], range: Range<Int>) throws(AutomergeError) -> BloomFilter {
        guard !range.isEmpty else { return BloomFilter() }
        var reader = ByteReader(bytes, range: range)
        let entries = try readUInt32(&reader)
        let bitsPerEntry = try readUInt32(&reader)
        let probes = try readUInt32(&reader)
        let bits = try reader.readBytes(count: byteCount(entries: entries, bitsPerEntry: bitsPerEntry))
        return BloomFilter(entryCount: entries, bitsPerEntry: bitsPerEntry, probeCount: probes, bits: bits)
    }

    private static func readUInt32(_ reader: inout ByteReader) throws(AutomergeError) -> UInt32 {
        let start = reader.position
        let value = try reader.readUnsignedLEB128()
        guard let narrow = UInt32(exactly: value) else {
            throw AutomergeError(.invalidLEB128, "Bloom filter field \(value) does not fit in 32 bits", at: start)
        }
        return narrow
    }

    /// The entry count times the bits per entry, in bytes, rounded up.
    static func byteCount(entries: UInt32, bitsPerEntry: UInt32) -> Int {
        Int((UInt64(entries) * UInt64(bitsPerEntry) + 7) / 8)
    }

    /// A received filter's probe count is honoured up to this many: past it a filter costs a
    /// peer's CPU without telling more (the reference's filters use 7).
    static let probeLimit: UInt32 = 1024

    /// Calls `body` with the bit positions of a hash until it returns false: three 32-bit
    /// little-endian words of the hash, reduced modulo the bit count, combined by double hashing.
    /// Arithmetic wraps at 32 bits as the reference's release build does.
    private func forEachProbe(of hash: ChangeHash, _ body: (UInt32) -> Bool) {
        let modulo = UInt32(truncatingIfNeeded: bits.count &* 8)
        guard modulo != 0 else { return }  // a count of 0 still probes once, as the reference does
        let bytes = hash.bytes
        func word(_ offset: Int) -> UInt32 {
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
        }
        var x = word(0) % modulo
        var y = word(4) % modulo
        let z = word(8) % modulo
        guard body(x) else { return }
        var remaining = min(probeCount, Self.probeLimit)
        while remaining > 1 {
            x = (x &+ y) % modulo
            y = (y &+ z) % modulo
            guard body(x) else { return }
            remaining -= 1
        }
    }
}
