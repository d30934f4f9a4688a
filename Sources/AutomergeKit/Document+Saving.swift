/// Saving: the canonical document chunk, and incremental change chunks.
extension Document {
    /// The whole document as one document chunk, byte-identical to what automerge 0.6 saves for
    /// the same history applied in the same order. Commits pending local edits first.
    public mutating func save() -> [UInt8] {
        commit()
        savedHistoryCount = history.count
        return encodedDocument()
    }

    /// The document chunk for the current history, without committing or marking anything.
    public func encodedDocument() -> [UInt8] {
        let set = operationSet
        // Actors of the changes, sorted; operation ids are renumbered into that table.
        let changeActors = Array(Set(history.map(\.actor))).sorted()
        var chunkActor = [Int32: Int]()
        for (position, actor) in changeActors.enumerated() {
            if let index = set.existingIndex(of: actor) { chunkActor[index] = position }
        }
        func chunkID(_ id: OpID) -> ChunkOpID { ChunkOpID(counter: id.counter, actor: chunkActor[id.actor] ?? 0) }

        var rows: [DocumentChunk.ChangeRow] = []
        rows.reserveCapacity(history.count)
        let actorPosition = Dictionary(uniqueKeysWithValues: changeActors.enumerated().map { ($1, $0) })
        for change in history {
            rows.append(DocumentChunk.ChangeRow(
                actor: actorPosition[change.actor] ?? 0, sequence: change.sequence, maxOperation: change.maxOperation,
                time: change.time, message: change.message,
                dependencies: change.dependencies.map { historyIndex[$0] ?? 0 }, extraBytes: change.extraBytes))
        }

        var operations: [ChunkOperation] = []
        operations.reserveCapacity(set.operations.count)
        func append(_ index: Int) {
            let operation = set.operations[index]
            let key: ChunkKey
            switch operation.key {
            case .property(let property): key = .property(set.properties[property])
            case .element(let element): key = element.isRoot ? .head : .element(chunkID(element))
            }
            operations.append(ChunkOperation(
                id: chunkID(operation.id), object: operation.object.isRoot ? nil : chunkID(operation.object),
                key: key, insert: operation.insert, action: operation.action, value: operation.value,
                references: operation.successors.map(chunkID), expand: operation.expand, markName: operation.markName))
        }
        let order = set.lamportOrder
        let objectIDs = set.objects.keys.sorted { $0.isRoot ? !$1.isRoot : ($1.isRoot ? false : order.precedes($0, $1)) }
        for objectID in objectIDs {
            guard let object = set.objects[objectID] else { continue }
            if object.type?.isSequence == true {
                for store in object.order {
                    for index in object.elementStore[store].operations { append(index) }
                }
            } else {
                let keys = object.keys.keys.sorted { set.properties[$0].utf8.lexicographicallyPrecedes(set.properties[$1].utf8) }
                for key in keys {
                    for index in object.keys[key] ?? [] { append(index) }
                }
            }
        }

        var chunk = DocumentChunk(actors: changeActors, heads: heads, changes: rows, operations: operations)
        for head in chunk.heads { chunk.headIndices[head] = historyIndex[head] }
        return chunk.encode()
    }

    /// The change chunks added since the last ``save()`` or ``saveIncremental()``, one after
    /// another; appending them to the last saved bytes gives a file that loads to this document.
    public mutating func saveIncremental() -> [UInt8] {
        commit()
        var bytes: [UInt8] = []
        for change in history[savedHistoryCount...] { bytes += change.bytes }
        savedHistoryCount = history.count
        return bytes
    }
}
