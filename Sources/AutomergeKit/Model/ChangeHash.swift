/// The SHA-256 of a change chunk: the identity of a change.
///
/// Held as four words rather than an array: a document keeps one per change and several in its
/// dependency lists, tables and head set, so a hash costs no allocation, no reference counting and
/// no pointer to follow when it is compared or hashed.
public struct ChangeHash: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 32 bytes as big-endian words, so that comparing the words in order compares the bytes.
    private let word0: UInt64, word1: UInt64, word2: UInt64, word3: UInt64

    /// The hash of these bytes (32 of them; fewer are padded with zeros, more are ignored).
    init(bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { ChangeHash(rawBytes: $0) }
    }

    /// The hash in the first 32 of these bytes (fewer are padded with zeros).
    init(rawBytes: UnsafeRawBufferPointer) {
        if rawBytes.count >= 32 {
            word0 = UInt64(bigEndian: rawBytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
            word1 = UInt64(bigEndian: rawBytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            word2 = UInt64(bigEndian: rawBytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
            word3 = UInt64(bigEndian: rawBytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            return
        }
        func word(_ index: Int) -> UInt64 {
            var value: UInt64 = 0
            for offset in (index * 8)..<(index * 8 + 8) {
                value = value << 8 | UInt64(offset < rawBytes.count ? rawBytes[offset] : 0)
            }
            return value
        }
        word0 = word(0)
        word1 = word(1)
        word2 = word(2)
        word3 = word(3)
    }

    public init?(hexString: String) {
        guard let bytes = HexEncoding.bytes(hexString), bytes.count == 32 else { return nil }
        self.init(bytes: bytes)
    }

    /// The 32 bytes of the hash.
    public var bytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(32)
        append(to: &output)
        return output
    }

    /// Appends the 32 bytes of the hash to `output`.
    func append(to output: inout [UInt8]) {
        withUnsafeBytes(of: (word0.bigEndian, word1.bigEndian, word2.bigEndian, word3.bigEndian)) { output.append(contentsOf: $0) }
    }

    /// Writes the hash's first four bytes (a chunk's checksum) at `offset`.
    func writeChecksum(into bytes: inout [UInt8], at offset: Int) {
        for position in 0..<4 { bytes[offset + position] = UInt8(truncatingIfNeeded: word0 >> (56 - 8 * UInt64(position))) }
    }

    /// The first eight bytes: a change hash is a SHA-256, so they are as good as all 32 (and the
    /// keys a document stores are hashes it computed itself).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(word0)
    }

    /// What Swift's dictionaries and sets hash a change hash with: the first word through
    /// SplitMix64's finalizer after the table's seed, without setting up and finishing a SipHash
    /// `Hasher` for each look-up (a load records every change in ``Document/historyIndex``).
    public func _rawHashValue(seed: Int) -> Int {
        var mixed = word0 ^ UInt64(bitPattern: Int64(seed))
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 31))
    }

    public var hexString: String { HexEncoding.string(bytes) }
    public var description: String { hexString }

    public static func < (left: ChangeHash, right: ChangeHash) -> Bool {
        (left.word0, left.word1, left.word2, left.word3) < (right.word0, right.word1, right.word2, right.word3)
    }
}
