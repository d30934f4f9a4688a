/// Loading: chunks into history and state.
extension Document {
    /// Loads a file written by automerge 0.6 or by this engine: a document chunk, change chunks,
    /// compressed change chunks, or several of them one after another.
    ///
    /// - Throws: ``AutomergeError`` for malformed input, a bad checksum, stored heads that do not
    ///   match the changes, or (for files of change chunks only) changes whose dependencies are
    ///   missing.
    public static func load(_ bytes: [UInt8]) throws(AutomergeError) -> Document {
        guard !bytes.isEmpty else { return Document() }
        var reader = ByteReader(bytes)
        let first = try Chunk.read(from: &reader)
        var incoming: [StoredChange] = []
        let firstWasDocument = first.type == .document
        // One new document (each draws a random actor), not one made only to be replaced.
        var document: Document
        if firstWasDocument {
            document = try reconstruct(DocumentChunk.parse(first), verifyHeads: true)
        } else {
            document = Document()
            incoming.append(try StoredChange.parseFromFile(first))
        }
        while !reader.isAtEnd {
            let chunk = try Chunk.read(from: &reader)
            if chunk.type == .document {
                incoming += try reconstruct(DocumentChunk.parse(chunk), verifyHeads: false).history
            } else {
                incoming.append(try StoredChange.parseFromFile(chunk))
            }
        }
        try document.applyChanges(incoming)
        if !document.queue.isEmpty && !firstWasDocument {
            throw AutomergeError(.missingDependency, "a change's dependencies are not in the document")
        }
        document.savedHistoryCount = document.history.count
        return document
    }

    /// Applies changes as the reference does: each one whose dependencies are present is applied
    /// at once, the others wait in the queue; then the queue is drained.
    mutating func applyChanges(_ changes: [StoredChange]) throws(AutomergeError) {
        for change in changes where historyIndex[change.hash] == nil {
            if sequenceByActor[change.actor, default: 0] >= change.sequence {
                throw AutomergeError(.invalidOperation, "duplicate sequence number \(change.sequence) for actor \(change.actor)")
            }
            if isCausallyReady(change) {
                try applyChange(change)
            } else {
                queue.append(change)
            }
        }
        while let index = queue.firstIndex(where: isCausallyReady) {
            let change = queue[index]
            queue[index] = queue[queue.count - 1]
            queue.removeLast()
            if historyIndex[change.hash] == nil { try applyChange(change) }
        }
    }

    func isCausallyReady(_ change: StoredChange) -> Bool {
        change.dependencies.allSatisfy { historyIndex[$0] != nil }
    }

    /// Applies one change whose dependencies are present.
    ///
    /// - Throws: for a change that does not follow its actor's previous one (the next sequence
    ///   number, op counters above the actor's earlier ones). The reference applies such a change,
    ///   but the document then saves as bytes that no loader accepts ("changes out of order"): one
    ///   damaged conflict copy merged in would make a good document unreadable.
    mutating func applyChange(_ stored: StoredChange) throws(AutomergeError) {
        try stored.requireCanonicalEncoding()
        let previousSequence = sequenceByActor[stored.actor, default: 0]
        guard stored.sequence == previousSequence + 1 else {
            throw AutomergeError(.invalidOperation, "change \(stored.sequence) of actor \(stored.actor) does not follow its change \(previousSequence) (changes out of order)")
        }
        if let previousMaximum = maxOperationByActor[stored.actor], stored.startOperation <= previousMaximum {
            throw AutomergeError(.invalidOperation, "change \(stored.sequence) of actor \(stored.actor) reuses op counters up to \(previousMaximum) (changes out of order)")
        }
        let change = try stored.withOperations()
        let actorMap = change.actors.map { operationSet.index(of: $0) }
        func translate(_ id: ChunkOpID) -> OpID { OpID(counter: id.counter, actor: actorMap[id.actor]) }
        recordInHistory(change)
        for operation in change.operations {
            let key: OpKey
            switch operation.key {
            case .property(let name): key = .property(operationSet.property(name))
            case .head: key = .element(.root)
            case .element(let element): key = .element(translate(element))
            }
            let predecessors = operation.references.map(translate)
                .sorted(by: operationSet.lamportOrder.precedes)
            try operationSet.apply(
                Operation(
                    id: translate(operation.id), object: operation.object.map(translate) ?? .root, key: key,
                    insert: operation.insert, action: operation.action, value: operation.value, successors: [],
                    expand: operation.expand, markName: operation.markName),
                predecessors: predecessors)
        }
    }

    /// Rebuilds a document from a document chunk: its operations as they are, and its changes
    /// re-encoded from the operations so that their hashes can be computed and checked.
    static func reconstruct(_ chunk: DocumentChunk, verifyHeads: Bool) throws(AutomergeError) -> Document {
        var document = Document()
        var set = OperationSet()
        // An actor the table lists twice is one actor: both indices name it, as in the reference,
        // which reads each index as the actor written there (a file may list one twice).
        let actorMap = chunk.actors.map { set.index(of: $0) }
        var chunk = chunk
        if set.actors.count != chunk.actors.count {
            for row in chunk.changes.indices { chunk.changes[row].actor = Int(actorMap[chunk.changes[row].actor]) }
        }
        func convert(_ id: ChunkOpID) -> OpID { OpID(counter: id.counter, actor: actorMap[id.actor]) }

        var loaded: [Operation] = []
        let operationCount = chunk.operationCountHint()
        loaded.reserveCapacity(operationCount)
        // A map key is named by a few operations (a month's records, by about eight each).
        set.reserveProperties(min(operationCount / 8, 4096))
        var recentProperties = RecentProperties()
        try chunk.forEachOperationFields { (id, object, chunkKey, insert, action, value, references, expand, markName) throws(AutomergeError) in
            let key: OpKey
            switch consume chunkKey {
            case .property(let name): key = .property(recentProperties.index(of: name, in: &set))
            case .head: key = .element(.root)
            case .element(let element): key = .element(convert(element))
            }
            var successors: [OpID] = []
            if !references.isEmpty {
                successors.reserveCapacity(references.count)
                for reference in references { successors.append(convert(reference)) }
            }
            loaded.append(Operation(
                id: convert(id), object: object.map(convert) ?? .root, key: key,
                insert: insert, action: action, value: consume value, successors: successors,
                expand: expand, markName: consume markName))
        }
        // Objects in id order, each operation's successors in Lamport order.
        let order = set.lamportOrder
        var previousObject: OpID?
        for index in loaded.indices {
            let object = loaded[index].object
            if let previousObject, object != previousObject, !order.precedes(previousObject, object) {
                throw AutomergeError(.invalidOperation, "the document contained ops which were out of order")
            }
            previousObject = object
            let count = loaded[index].successors.count
            if count > 1 {
                for position in 1..<count where !order.precedes(loaded[index].successors[position - 1], loaded[index].successors[position]) {
                    throw AutomergeError(.invalidOperation, "successors out of order")
                }
            }
        }
        try set.appendLoaded(consume loaded)
        for (id, object) in set.objects where object.type == nil {
            throw AutomergeError(.invalidOperation, "operations refer to object \(id.counter) which was never created (NotAnObject)")
        }
        var rebuilder = HistoryRebuilder(operationCount: set.operations.count)
        // Predecessors, counter totals, and the deletions the chunk only records as successors.
        for index in set.operations.indices {
            let successors = set.operations[index].successors
            if successors.isEmpty { continue }
            let isCounter = set.operations[index].isCounter
            for successor in successors {
                if let target = set.operationByID[successor] {
                    rebuilder.link(predecessor: index, to: target)
                    if isCounter && set.operations[target].isIncrement {
                        if case .int(let step) = set.operations[target].value {
                            set.operations[index].incrementTotal &+= step
                        } else if case .uint(let step) = set.operations[target].value {
                            set.operations[index].incrementTotal &+= Int64(truncatingIfNeeded: step)
                        }
                    }
                } else {
                    rebuilder.link(predecessor: index, toDeletion: successor)
                }
            }
        }
        document.operationSet = set
        try rebuilder.rebuild(chunk, into: &document, verifyHeads: verifyHeads)
        return document
    }
}
