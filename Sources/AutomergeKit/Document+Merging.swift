/// Merging: taking the changes another document has and this one lacks.
extension Document {
    /// Applies every change of `other` that this document lacks, in the reference's order:
    /// depth-first from `other`'s heads, reversed, each applied once its dependencies are present.
    /// Merging is idempotent, and merging in any order gives the same state and heads.
    public mutating func merge(_ other: Document) throws(AutomergeError) {
        commit()
        let added = changesAdded(from: other)
        guard !added.isEmpty else { return }
        var copy = self
        try copy.applyChanges(added)
        self = copy
    }

    /// A copy of the document that writes as another actor.
    public func fork(actor: ActorID? = nil) -> Document {
        var copy = self
        copy.pending = PendingTransaction()
        copy.setActor(actor ?? .random())
        return copy
    }

    func changesAdded(from other: Document) -> [StoredChange] {
        var stack = other.heads
        var seen = Set<ChangeHash>()
        var found: [ChangeHash] = []
        while let hash = stack.popLast() {
            guard !seen.contains(hash), historyIndex[hash] == nil else { continue }
            seen.insert(hash)
            found.append(hash)
            if let index = other.historyIndex[hash] {
                stack += other.history[index].dependencies
            }
        }
        return found.reversed().compactMap { hash in other.historyIndex[hash].map { other.history[$0] } }
    }

    /// Changes made after the given heads (all changes when `heads` is empty), in history order.
    public func changeChunks(since heads: [ChangeHash]) -> [[UInt8]] {
        var known = Set<ChangeHash>()
        var stack = heads.filter { historyIndex[$0] != nil }
        while let hash = stack.popLast() {
            guard known.insert(hash).inserted, let index = historyIndex[hash] else { continue }
            stack += history[index].dependencies
        }
        return history.filter { !known.contains($0.hash) }.map(\.bytes)
    }

    /// Applies change chunks (as ``changeChunks(since:)`` or ``saveIncremental()`` give them).
    public mutating func apply(changeChunks bytes: [UInt8]) throws(AutomergeError) {
        commit()
        var reader = ByteReader(bytes)
        var incoming: [StoredChange] = []
        while !reader.isAtEnd {
            let chunk = try Chunk.read(from: &reader)
            guard chunk.type == .change else {
                incoming += try Document.reconstruct(DocumentChunk.parse(chunk), verifyHeads: false).history
                continue
            }
            incoming.append(try StoredChange.parseFromFile(chunk))
        }
        var copy = self
        try copy.applyChanges(incoming)
        self = copy
    }
}
