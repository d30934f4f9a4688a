/// What one peer knows about its sync with another, for one document (automerge 0.6.1's
/// `sync::State`).
///
/// Only ``sharedHeads`` outlives a connection: ``encoded`` keeps it, ``decode(_:)`` restores it,
/// and a sync started from it sends only what was added since.
public struct SyncState: Sendable, Equatable {
    /// The heads both peers are known to have.
    public var sharedHeads: [ChangeHash] = []
    /// The heads this peer sent last.
    public var lastSentHeads: [ChangeHash] = []
    /// The peer's heads as its last message gave them; nil before any.
    public var theirHeads: [ChangeHash]?
    /// The hashes the peer last asked for.
    public var theirNeed: [ChangeHash]?
    /// The peer's summaries of what it has.
    public var theirHave: [SyncHave]?
    /// The changes sent in this connection (not sent again).
    public var sentHashes: Set<ChangeHash> = []
    /// Whether a message was sent and nothing has come back since.
    public var inFlight = false
    /// Whether this peer has sent at least one message (the first carries the capabilities).
    public var haveResponded = false
    /// The capabilities the peer advertised.
    public var theirCapabilities: [SyncCapability]?

    /// The state of a sync that has not started.
    public init() {}

    static let typeByte: UInt8 = 0x43

    /// The persistent part: 0x43, then the shared heads (a count and 32-byte hashes).
    public var encoded: [UInt8] {
        var output: [UInt8] = [Self.typeByte]
        SyncMessage.append(sharedHeads, to: &output)
        return output
    }

    /// A state from ``encoded`` bytes: the shared heads, and the rest as a new connection starts it
    /// (the peer's haves known to be none, as the reference decodes it).
    ///
    /// - Throws: ``AutomergeError`` for a first byte other than 0x43 or truncated hashes.
    public static func decode(_ bytes: [UInt8]) throws(AutomergeError) -> SyncState {
        var reader = ByteReader(bytes)
        let first = try reader.readByte()
        guard first == typeByte else {
            throw AutomergeError(.invalidValue, "not a sync state: first byte 0x\(HexEncoding.string([first])), expected 0x43", at: 0)
        }
        var state = SyncState()
        state.sharedHeads = try SyncMessage.readHashes(&reader)
        state.theirHave = []
        return state
    }

    /// Whether the peer reads version 2 messages.
    var supportsV2: Bool { theirCapabilities?.contains(.messageV2) ?? false }
}
