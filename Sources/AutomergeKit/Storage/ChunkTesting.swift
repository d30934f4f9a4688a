/// For tests that damage chunks on purpose: re-wraps a chunk body with a valid checksum so the
/// damage reaches the parsers behind the checksum check.
public enum ChunkTesting {
    /// `prefix`: the magic bytes as found. Returns checksum, type, length and body, then `rest`.
    public static func rehashed(type: UInt8, body: [UInt8], rest: [UInt8], prefix: [UInt8]) -> [UInt8] {
        let known = ChunkType(rawValue: type) ?? .change
        let hash = Chunk.chunkHash(type: known, body[...])
        var output = Array(hash[0..<4])
        output.append(type)
        output.appendUnsignedLEB128(UInt64(body.count))
        return output + body + rest
    }
}
