/// One piece of work the mount told a program was done and has not yet done to the tree: a file closed
/// in the mount that goes to the tree a few seconds later (or when the tree takes it), or an `rm` whose
/// removal from the tree waits out its grace period (or for the tree to take it).
///
/// Stored as one file in the journal's folder (see `DeferredWorkJournal`), in this layout:
///
///     "minutafs-journal 1\n"                     the magic line
///     1 byte                                      "w" (write) or "r" (removal)
///     4 bytes, little-endian                      the path's length in bytes
///     the path's bytes                            the tree's path, `/records/2026/03/notes.txt`
///     8 bytes, little-endian                      the contents' length (0 for a removal)
///     the contents
///     8 bytes, little-endian                      FNV-1a (64 bits) of everything before it
public struct JournalEntry: Sendable, Equatable {
    public enum Work: Sendable, Equatable {
        /// The file at `path` holds these bytes in the mount; the tree does not have them yet.
        case write(contents: [UInt8])
        /// The tree's file at `path` was removed in the mount; the tree still has it.
        case removal
    }

    public var path: String
    public var work: Work

    public init(path: String, work: Work) {
        self.path = path
        self.work = work
    }

    /// What a person reads in status, errors and `minutafs check`.
    public var summary: String {
        switch work {
        case .write(let contents): "write \(path) (\(contents.count) bytes)"
        case .removal: "rm \(path)"
        }
    }

    static let magic = Array("minutafs-journal 1\n".utf8)

    /// The entry's bytes, as stored.
    func encoded() -> [UInt8] {
        var bytes = Self.magic
        let pathBytes = Array(path.utf8)
        let contents: [UInt8]
        switch work {
        case .write(let written):
            bytes.append(UInt8(ascii: "w"))
            contents = written
        case .removal:
            bytes.append(UInt8(ascii: "r"))
            contents = []
        }
        bytes.append(littleEndian: UInt32(pathBytes.count))
        bytes += pathBytes
        bytes.append(littleEndian: UInt64(contents.count))
        bytes += contents
        bytes.append(littleEndian: Self.checksum(bytes[...]))
        return bytes
    }

    /// Reads an entry's bytes back.
    /// - Throws: the reason, when the bytes are not a whole entry (cut short, damaged, another format).
    init(decoding bytes: [UInt8]) throws(JournalEntryDamage) {
        var reader = LittleEndianReader(bytes: bytes)
        guard reader.take(Self.magic.count) == Self.magic[...] else { throw .notAnEntry }
        guard bytes.count >= Self.magic.count + 1 + 4 + 8 + 8 else { throw .cutShort }
        let checked = bytes.count - 8
        var trailer = LittleEndianReader(bytes: bytes, at: checked)
        guard trailer.uint64() == Self.checksum(bytes[..<checked]) else { throw .checksumMismatch }
        guard let kind = reader.byte(), let pathLength = reader.uint32(), let pathBytes = reader.take(Int(pathLength)),
              let contentLength = reader.uint64(), contentLength <= UInt64(checked - reader.offset),
              let contents = reader.take(Int(contentLength)), reader.offset == checked
        else { throw .cutShort }
        guard let path = String(validating: pathBytes, as: UTF8.self), path.hasPrefix("/") else { throw .badPath }
        self.path = path
        switch kind {
        case UInt8(ascii: "w"): work = .write(contents: Array(contents))
        case UInt8(ascii: "r") where contents.isEmpty: work = .removal
        default: throw .unknownKind(kind)
        }
    }

    /// FNV-1a, 64 bits: enough to tell a damaged or half-written entry from a whole one.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// Why the bytes of a journal file are not an entry.
public enum JournalEntryDamage: Error, Sendable, Equatable, CustomStringConvertible {
    case notAnEntry
    case cutShort
    case checksumMismatch
    case badPath
    case unknownKind(UInt8)

    public var description: String {
        switch self {
        case .notAnEntry: "not a minutafs journal entry (no magic line)"
        case .cutShort: "cut short (its lengths run past its end)"
        case .checksumMismatch: "damaged (its checksum does not match)"
        case .badPath: "its path is not an absolute UTF-8 path"
        case .unknownKind(let kind): "unknown kind of work \(kind)"
        }
    }
}

/// A cursor over little-endian numbers and byte runs; every read is bounds-checked.
private struct LittleEndianReader {
    let bytes: [UInt8]
    var offset: Int

    init(bytes: [UInt8], at offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func byte() -> UInt8? {
        take(1)?.first
    }

    mutating func uint32() -> UInt32? {
        take(4).map { $0.reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    }

    mutating func uint64() -> UInt64? {
        take(8).map { $0.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
    }
}

extension Array where Element == UInt8 {
    fileprivate mutating func append<Number: FixedWidthInteger>(littleEndian number: Number) {
        Swift.withUnsafeBytes(of: number.littleEndian) { append(contentsOf: $0) }
    }
}
