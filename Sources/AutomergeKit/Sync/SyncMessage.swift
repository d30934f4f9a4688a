/// One message of the Automerge sync protocol, as automerge 0.6.1's `sync.rs` encodes it.
///
/// Layout: the version byte (0x42 or 0x43); the heads, the needed hashes (each a LEB128 count and
/// 32-byte hashes); the haves (a count, then for each its last-sync hashes and its Bloom filter as
/// length-prefixed bytes); the changes (a count of length-prefixed blobs); and, only when any bytes
/// remain, the capabilities (a count and one byte each). Bytes after the capabilities are ignored.
public struct SyncMessage: Sendable, Equatable {
    public var version: SyncMessageVersion
    /// The sender's heads, sorted.
    public var heads: [ChangeHash]
    /// Hashes the sender asks for explicitly (dependencies it lacks), sorted.
    public var need: [ChangeHash]
    /// Summaries of what the sender has.
    public var have: [SyncHave]
    /// Version 1: change chunks, one per element. Version 2: at most one element, a saved
    /// document or change chunks one after another. Each is what ``Document/applySyncChanges(_:)`` takes.
    public var changes: [[UInt8]]
    /// Sent in a peer's first message only; nil when the message has none.
    public var capabilities: [SyncCapability]?

    public init(
        version: SyncMessageVersion, heads: [ChangeHash], need: [ChangeHash], have: [SyncHave],
        changes: [[UInt8]], capabilities: [SyncCapability]?
    ) {
        self.version = version
        self.heads = heads
        self.need = need
        self.have = have
        self.changes = changes
        self.capabilities = capabilities
    }

    /// The message's bytes.
    public var encoded: [UInt8] {
        var output: [UInt8] = [version.rawValue]
        Self.append(heads, to: &output)
        Self.append(need, to: &output)
        output.appendLength(have.count)
        for entry in have {
            Self.append(entry.lastSync, to: &output)
            output.appendPrefixed(entry.bloom.encoded)
        }
        output.appendLength(changes.count)
        for change in changes { output.appendPrefixed(change) }
        if let capabilities {
            output.appendLength(capabilities.count)
            for capability in capabilities { output.append(capability.byte) }
        }
        return output
    }

    /// Reads a message.
    ///
    /// - Throws: ``AutomergeError`` naming the byte where the message stops making sense: a first
    ///   byte other than 0x42 or 0x43, a malformed LEB128, or fewer bytes than a count or length says.
    ///   Nothing the bytes say is allocated before the bytes are there.
    public static func decode(_ bytes: [UInt8]) throws(AutomergeError) -> SyncMessage {
        var reader = ByteReader(bytes)
        let first = try reader.readByte()
        guard let version = SyncMessageVersion(rawValue: first) else {
            throw AutomergeError(.invalidValue, "not a sync message: first byte 0x\(HexEncoding.string([first])), expected 0x42 or 0x43", at: 0)
        }
        let heads = try readHashes(&reader)
        let need = try readHashes(&reader)
        var have: [SyncHave] = []
        for _ in 0..<(try readCount(&reader)) {
            let lastSync = try readHashes(&reader)
            let length = try reader.readLength()
            let range = try reader.readRange(count: length)
            have.append(SyncHave(lastSync: lastSync, bloom: try BloomFilter.decode(bytes, range: range)))
        }
        var changes: [[UInt8]] = []
        for _ in 0..<(try readCount(&reader)) {
            changes.append(try reader.readBytes(count: try reader.readLength()))
        }
        var capabilities: [SyncCapability]?
        if !reader.isAtEnd {
            var list: [SyncCapability] = []
            for _ in 0..<(try readCount(&reader)) { list.append(SyncCapability(byte: try reader.readByte())) }
            capabilities = list
        }
        return SyncMessage(version: version, heads: heads, need: need, have: have, changes: changes, capabilities: capabilities)
    }

    static func append(_ hashes: [ChangeHash], to output: inout [UInt8]) {
        output.appendLength(hashes.count)
        for hash in hashes { hash.append(to: &output) }
    }

    /// A count of items that follow; each item takes at least one byte, so a count past the bytes
    /// left is refused before any loop runs.
    static func readCount(_ reader: inout ByteReader) throws(AutomergeError) -> Int {
        let start = reader.position
        let value = try reader.readUnsignedLEB128()
        guard value <= UInt64(reader.remainingCount) else {
            throw AutomergeError(.truncated, "a count of \(value) items with \(reader.remainingCount) bytes left", at: start)
        }
        return Int(value)
    }

    static func readHashes(_ reader: inout ByteReader) throws(AutomergeError) -> [ChangeHash] {
        var hashes: [ChangeHash] = []
        for _ in 0..<(try readCount(&reader)) {
            let range = try reader.readRange(count: 32)
            hashes.append(ChangeHash(bytes: Array(reader.bytes[range])))
        }
        return hashes
    }
}
