/// What a sync message's sender says it has: the heads it last synced at with the recipient, and
/// a Bloom filter of the changes it added since.
public struct SyncHave: Sendable, Equatable {
    /// The heads at the last successful sync with the recipient (sorted).
    public var lastSync: [ChangeHash]
    /// The changes the sender has beyond `lastSync`.
    public var bloom: BloomFilter

    public init(lastSync: [ChangeHash] = [], bloom: BloomFilter = BloomFilter()) {
        self.lastSync = lastSync
        self.bloom = bloom
    }
}
