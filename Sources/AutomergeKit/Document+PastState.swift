/// Reading the document as it was: its state at a set of heads, or at a causally complete set of
/// its changes. The result is a new document holding only those changes (the reference builds its
/// `fork_at` the same way: the changes in the heads' causal past, applied to an empty document).
extension Document {
    /// The hashes of the changes in the causal past of `heads` (the heads included).
    ///
    /// - Throws: ``AutomergeError`` (`missingDependency`) when a head is not a change of this document.
    public func causalPast(of heads: [ChangeHash]) throws(AutomergeError) -> Set<ChangeHash> {
        var past = Set<ChangeHash>()
        var stack: [ChangeHash] = []
        for head in heads {
            guard historyIndex[head] != nil else {
                throw AutomergeError(.missingDependency, "head \(head.hexString) is not a change of this document")
            }
            stack.append(head)
        }
        while let hash = stack.popLast() {
            guard past.insert(hash).inserted, let index = historyIndex[hash] else { continue }
            stack += history[index].dependencies
        }
        return past
    }

    /// The document as it was at `heads` (an empty document for no heads), for reading: the changes
    /// in the heads' causal past applied to a new document, in this document's order.
    ///
    /// - Throws: ``AutomergeError`` when a head is not a change of this document.
    public func state(atHeads heads: [ChangeHash]) throws(AutomergeError) -> Document {
        try state(including: causalPast(of: heads))
    }

    /// The document holding exactly the changes in `hashes`, which must be causally complete (every
    /// dependency of a change in it is in it too), for reading. Hashes the document does not hold
    /// are ignored.
    ///
    /// - Throws: ``AutomergeError`` (`missingDependency`) when the set is not causally complete.
    public func state(including hashes: Set<ChangeHash>) throws(AutomergeError) -> Document {
        var past = Document(actor: actor)
        guard !hashes.isEmpty else { return past }
        // Everything, with nothing pending: the document itself (a copy shares its storage).
        if pending.operations.isEmpty && hashes.count >= history.count && history.allSatisfy({ hashes.contains($0.hash) }) {
            return self
        }
        for change in history where hashes.contains(change.hash) {
            guard past.isCausallyReady(change) else {
                throw AutomergeError(.missingDependency, "change \(change.hash.hexString) is in the set but one of its dependencies is not (the set is not causally complete)")
            }
            try past.applyChange(change)
        }
        past.savedHistoryCount = past.history.count
        return past
    }
}

extension Document {
    /// Replays the history: applies the changes one by one, in this document's order, to a new
    /// document, and calls `body` with each change and the state right after it. Costs one load of
    /// the document, however many changes it has.
    ///
    /// - Throws: ``AutomergeError`` when a change does not apply (it applied when it was loaded, so
    ///   only for a document changed in an unexpected way).
    public func replay(_ body: (ChangeInfo, Document) -> Void) throws(AutomergeError) {
        var past = Document(actor: actor)
        for change in history {
            try past.applyChange(change)
            body(ChangeInfo(
                hash: change.hash, actor: change.actor, sequence: change.sequence,
                startOperation: change.startOperation, operationCount: change.operationCount,
                dependencies: change.dependencies.sorted(), time: change.time, message: change.message), past)
        }
    }
}
