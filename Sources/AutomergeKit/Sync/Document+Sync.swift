/// The sync protocol's two steps (automerge 0.6.1's `SyncDoc`): what to send a peer next, and
/// what a peer's message changes. Same document, same state: the same message bytes as the
/// reference.
extension Document {
    /// The next message for the peer `state` describes, or nil when there is nothing to say: the
    /// peer is up to date, or a message is in flight and nothing has changed since. Commits pending
    /// local edits first.
    public mutating func generateSyncMessage(_ state: inout SyncState) -> SyncMessage? {
        commit()
        let ourHeads = heads
        let ourNeed = missingDependencies(of: state.theirHeads ?? [])
        let theirHeads = Set(state.theirHeads ?? [])
        var ourHave: [SyncHave] = []
        if ourNeed.allSatisfy(theirHeads.contains) {
            let added = historyPositions(after: state.sharedHeads).map { history[$0].hash }
            ourHave = [SyncHave(lastSync: state.sharedHeads, bloom: BloomFilter(hashes: added))]
        }
        // The peer synced with us at heads we do not have (we lost data): start over.
        if let first = state.theirHave?.first, !first.lastSync.allSatisfy({ historyIndex[$0] != nil }) {
            return SyncMessage(
                version: .v1, heads: ourHeads, need: [], have: [SyncHave()], changes: [],
                capabilities: [.messageV1, .messageV2])
        }

        var version = SyncMessageVersion.v1
        var changes: [[UInt8]] = []
        var sentNow: [ChangeHash] = []
        func setBlob(_ blob: [UInt8]) {
            version = .v2
            // The reference sends a blob of one byte or none as no changes at all.
            changes = blob.count > 1 ? [blob] : []
        }
        if let theirHave = state.theirHave, let theirNeed = state.theirNeed {
            let sendWholeDocument = state.theirHeads?.isEmpty == true && !state.haveResponded && state.supportsV2
            // A document that cannot be saved (`save()` refuses change times 2^63 apart, which the
            // reference saves as bytes no loader accepts) goes as its changes instead.
            if sendWholeDocument, var blob = try? encodedDocument() {
                for change in queue { blob += change.bytes }
                sentNow = history.map(\.hash)
                setBlob(blob)
            } else {
                let toSend = changesToSend(have: theirHave, need: theirNeed).filter { !state.sentHashes.contains($0.hash) }
                sentNow = toSend.map(\.hash)
                if state.supportsV2 {
                    var blob: [UInt8] = []
                    for change in toSend { blob += change.bytes }
                    setBlob(blob)
                } else {
                    changes = toSend.map(\.bytes)
                }
            }
        } else if state.supportsV2 {
            setBlob([])
        }

        let headsUnchanged = state.lastSentHeads == ourHeads
        let headsEqual = state.theirHeads == ourHeads
        if headsUnchanged && state.haveResponded {
            if headsEqual && changes.isEmpty { return nil }
            if state.inFlight { return nil }
        }
        let capabilities: [SyncCapability]? = state.haveResponded ? nil : [.messageV1, .messageV2]
        state.haveResponded = true
        state.lastSentHeads = ourHeads
        state.sentHashes.formUnion(sentNow)
        state.inFlight = true
        return SyncMessage(
            version: version, heads: ourHeads, need: ourNeed, have: ourHave, changes: changes,
            capabilities: capabilities)
    }

    /// Applies a peer's message: its changes to the document, what it says to `state`.
    ///
    /// - Throws: ``AutomergeError`` when a change in the message does not load; the document is
    ///   then unchanged (the reference keeps the changes before the bad one) and `state` is marked
    ///   not in flight with the peer's capabilities, as the reference leaves it.
    public mutating func receiveSyncMessage(_ message: SyncMessage, state: inout SyncState) throws(AutomergeError) {
        commit()
        state.inFlight = false
        let headsBefore = heads
        if let capabilities = message.capabilities { state.theirCapabilities = capabilities }
        if !message.changes.isEmpty {
            var copy = self
            for blob in message.changes { try copy.applySyncChanges(blob) }
            self = copy
            let before = Set(headsBefore)
            var advanced = Set(headSet.filter { !before.contains($0) })
            for head in state.sharedHeads where headSet.contains(head) { advanced.insert(head) }
            state.sharedHeads = advanced.sorted()
        }
        removeAncestors(of: message.heads, from: &state.sentHashes)
        if message.changes.isEmpty && message.heads == headsBefore {
            state.lastSentHeads = message.heads
        }
        let known = message.heads.filter { historyIndex[$0] != nil }
        if known.count == message.heads.count {
            state.sharedHeads = message.heads
            // The peer has nothing (it lost its data): send it everything again.
            if message.heads.isEmpty {
                state.lastSentHeads = []
                state.sentHashes = []
            }
        } else {
            state.sharedHeads = Set(state.sharedHeads + known).sorted()
        }
        state.theirHave = message.have
        state.theirHeads = message.heads
        state.theirNeed = message.need
    }

    /// Loads one blob of a sync message's changes (the reference's `load_incremental`): into an
    /// empty document a saved document loads whole, keeping this document's actor; otherwise its
    /// changes are applied, those whose dependencies are missing waiting in the queue.
    public mutating func applySyncChanges(_ blob: [UInt8]) throws(AutomergeError) {
        if history.isEmpty && queue.isEmpty, blob.count > 8, blob[8] == 0 {
            var loaded = try Document.load(blob)
            loaded.setActor(actor)
            self = loaded
            return
        }
        try apply(changeChunks: blob)
    }

    /// Hashes the document lacks: those of `heads` it does not have and the dependencies its
    /// waiting changes lack, minus the waiting changes themselves, sorted.
    func missingDependencies(of heads: [ChangeHash]) -> [ChangeHash] {
        let waiting = Set(queue.map(\.hash))
        var missing = Set<ChangeHash>()
        for change in queue {
            for dependency in change.dependencies where historyIndex[dependency] == nil { missing.insert(dependency) }
        }
        for head in heads where historyIndex[head] == nil { missing.insert(head) }
        return missing.filter { !waiting.contains($0) }.sorted()
    }

    /// The positions in ``history`` of the changes that are not ancestors of `heads` (or `heads`
    /// themselves), in history order; unknown hashes in `heads` are ignored.
    func historyPositions(after heads: [ChangeHash]) -> [Int] {
        let known = ancestors(of: heads)
        guard !known.isEmpty else { return Array(history.indices) }
        return history.indices.filter { !known.contains(history[$0].hash) }
    }

    /// `heads` that the document has and all their ancestors.
    func ancestors(of heads: [ChangeHash]) -> Set<ChangeHash> {
        var known = Set<ChangeHash>()
        var stack = heads.filter { historyIndex[$0] != nil }
        while let hash = stack.popLast() {
            guard known.insert(hash).inserted, let index = historyIndex[hash] else { continue }
            stack += history[index].dependencies
        }
        return known
    }

    /// Removes from `hashes` every change that `heads` (those the document has) include.
    func removeAncestors(of heads: [ChangeHash], from hashes: inout Set<ChangeHash>) {
        guard !hashes.isEmpty else { return }
        hashes.subtract(ancestors(of: heads))
    }

    /// The changes a peer lacks, given its haves and needs: with no haves just the needed ones;
    /// otherwise the needed ones, then (in history order) every change since the haves' last-sync
    /// heads that no Bloom filter holds, and every change that depends on one of those.
    func changesToSend(have: [SyncHave], need: [ChangeHash]) -> [StoredChange] {
        if have.isEmpty {
            return need.compactMap { hash in historyIndex[hash].map { history[$0] } }
        }
        var lastSync = Set<ChangeHash>()
        for entry in have { lastSync.formUnion(entry.lastSync) }
        let positions = historyPositions(after: Array(lastSync))
        var dependents: [ChangeHash: [ChangeHash]] = [:]
        var toSend = Set<ChangeHash>()
        for position in positions {
            let change = history[position]
            for dependency in change.dependencies { dependents[dependency, default: []].append(change.hash) }
            if have.allSatisfy({ !$0.bloom.contains(change.hash) }) { toSend.insert(change.hash) }
        }
        var stack = Array(toSend)
        while let hash = stack.popLast() {
            for dependent in dependents[hash] ?? [] where toSend.insert(dependent).inserted {
                stack.append(dependent)
            }
        }
        var result: [StoredChange] = []
        for hash in need where !toSend.contains(hash) {
            if let index = historyIndex[hash] { result.append(history[index]) }
        }
        for position in positions where toSend.contains(history[position].hash) {
            result.append(history[position])
        }
        return result
    }
}
