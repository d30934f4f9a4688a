/// For tests that damage chunks on purpose: re-wraps a chunk body with a valid checksum so the
/// damage reaches the parsers behind the checksum check.
package enum ChunkTesting {
    /// `prefix`: the magic bytes as found. Returns checksum, type, length and body, then `rest`.
    package static func rehashed(type: UInt8, body: [UInt8], rest: [UInt8], prefix: [UInt8]) -> [UInt8] {
        let known = ChunkType(rawValue: type) ?? .change
        let hash = Chunk.chunkHash(type: known, body[...])
        var output = Array(hash[0..<4])
        output.append(type)
        output.appendUnsignedLEB128(UInt64(body.count))
        return output + body + rest
    }

    /// A file's chunks with their checksums (and nothing else) recomputed, as far as their headers
    /// can be read. Compressed change chunks, and whatever follows one, are left as they are: their
    /// checksum covers the inflated bytes.
    package static func rechecksummed(_ file: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(file.count)
        var position = 0
        while position < file.count {
            guard let header = chunkHeader(in: file, at: position), header.type != ChunkType.compressedChange.rawValue else {
                output.append(contentsOf: file[position...])
                break
            }
            let prefix = Array(file[position..<position + 4])
            output.append(contentsOf: prefix)
            output.append(contentsOf: rehashed(type: header.type, body: Array(file[header.body]), rest: [], prefix: prefix))
            position = header.body.upperBound
        }
        return output
    }

    /// The type and body of the chunk at `start`, when its header is complete and its body fits.
    private static func chunkHeader(in file: [UInt8], at start: Int) -> (type: UInt8, body: Range<Int>)? {
        guard start + 9 <= file.count else { return nil }
        var reader = ByteReader(file, range: start + 9..<file.count)
        guard let length = try? reader.readUnsignedLEB128(), length <= UInt64(reader.remainingCount) else { return nil }
        return (file[start + 8], reader.position..<reader.position + Int(length))
    }
}
