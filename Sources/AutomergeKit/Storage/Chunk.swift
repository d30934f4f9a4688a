import Crypto

/// The container every Automerge file is made of: magic bytes, a 4-byte checksum, a chunk type,
/// a LEB128 length and the chunk's contents. A file is one or more chunks one after another.
enum ChunkType: UInt8 {
    case document = 0
    case change = 1
    case compressedChange = 2
}

enum Chunk {
    static let magicBytes: [UInt8] = [0x85, 0x6f, 0x4a, 0x83]

    /// One chunk read from a file. For a compressed change, `contents` holds the inflated change
    /// and `type` is `.change`.
    struct Parsed {
        var type: ChunkType
        var wasCompressed: Bool
        /// The bytes the chunk's contents are read from (the file itself, or the inflated data).
        var bytes: [UInt8]
        var contents: Range<Int>
        /// SHA-256 of type, length and contents: the change hash for change chunks.
        var hash: [UInt8]
        /// Where the chunk started in the file, for error messages.
        var fileOffset: Int
    }

    /// Reads the chunk starting at the reader's position and verifies its checksum.
    static func read(from reader: inout ByteReader) throws(AutomergeError) -> Parsed {
        let start = reader.position
        guard reader.remainingCount >= 4 else {
            throw .truncated(at: reader.end, needed: 4 - reader.remainingCount)
        }
        let magic = try reader.readBytes(count: 4)
        guard magic == magicBytes else {
            throw AutomergeError(.invalidMagicBytes, "not an Automerge chunk (invalid magic bytes)", at: start)
        }
        let checksum = try reader.readBytes(count: 4)
        let typeOffset = reader.position
        let rawType = try reader.readByte()
        let length = try reader.readUnsignedLEB128()
        guard let type = ChunkType(rawValue: rawType) else {
            throw AutomergeError(.unknownChunkType, "unknown chunk type \(rawType)", at: typeOffset)
        }
        guard length <= UInt64(reader.remainingCount) else {
            throw .truncated(at: reader.end, needed: Int(clamping: length) - reader.remainingCount)
        }
        let contents = try reader.readRange(count: Int(length))

        switch type {
        case .document, .change:
            let hash = chunkHash(type: type, reader.bytes[contents])
            guard Array(hash[0..<4]) == checksum else {
                throw AutomergeError(.checksumMismatch, "bad checksum in \(type == .document ? "document" : "change") chunk", at: start)
            }
            return Parsed(type: type, wasCompressed: false, bytes: reader.bytes, contents: contents, hash: hash, fileOffset: start)
        case .compressedChange:
            let inflated = try RawInflate.decompress(reader.bytes[contents], at: contents.lowerBound)
            let hash = chunkHash(type: .change, inflated[...])
            guard Array(hash[0..<4]) == checksum else {
                throw AutomergeError(.checksumMismatch, "bad checksum in compressed change chunk", at: start)
            }
            return Parsed(type: .change, wasCompressed: true, bytes: inflated, contents: 0..<inflated.count, hash: hash, fileOffset: start)
        }
    }

    static func chunkHash(type: ChunkType, _ contents: ArraySlice<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        // Type and LEB128 length: at most 11 bytes, hashed from the stack.
        var prefix: (UInt64, UInt64) = (0, 0)
        let prefixCount = withUnsafeMutableBytes(of: &prefix) { buffer in
            buffer[0] = type.rawValue
            var value = UInt64(contents.count)
            var count = 1
            repeat {
                var byte = UInt8(value & 0x7f)
                value >>= 7
                if value != 0 { byte |= 0x80 }
                buffer[count] = byte
                count += 1
            } while value != 0
            return count
        }
        withUnsafeBytes(of: &prefix) { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<prefixCount])) }
        contents.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return hasher.finalize().withUnsafeBytes { Array($0) }
    }

    /// Wraps contents in a chunk header: magic, checksum, type, length. The hash is taken over the
    /// chunk as written (type, length and contents lie together after the checksum), in one pass.
    static func encode(type: ChunkType, contents: [UInt8]) -> (bytes: [UInt8], hash: ChangeHash) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(contents.count + 19)
        bytes.append(contentsOf: magicBytes)
        for _ in 0..<4 { bytes.append(0) }  // the checksum, once the hash is known
        bytes.append(type.rawValue)
        bytes.appendUnsignedLEB128(UInt64(contents.count))
        bytes.append(contentsOf: contents)
        var hasher = SHA256()
        bytes.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[8...])) }
        let hash = hasher.finalize().withUnsafeBytes { ChangeHash(rawBytes: $0) }
        hash.writeChecksum(into: &bytes, at: 4)
        return (bytes, hash)
    }
}
