/// Local operations made since the last commit.
struct PendingTransaction: Sendable {
    var operations: [ChunkOperation] = []
    var startOperation: UInt64 = 0
}

extension Document {
    /// Turns the operations made since the last commit into one change. Does nothing when there
    /// are none.
    /// - Parameters:
    ///   - message: an optional commit message.
    ///   - time: the commit time as stored (seconds since the epoch, as automerge-swift writes it).
    public mutating func commit(message: String? = nil, time: Int64 = 0) {
        // Filled in by the editing layer.
    }
}
