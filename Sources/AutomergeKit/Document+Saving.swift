/// Saving: the canonical document chunk, and incremental change chunks.
extension Document {
    /// The whole document as one document chunk, byte-identical to what automerge 0.6 saves for
    /// the same history applied in the same order. Commits pending local edits first.
    ///
    /// Changes still waiting for missing dependencies (``hasPendingChanges``: a file whose first
    /// chunk is a document may hold them) follow the document chunk as the change chunks they were
    /// read as, in the order they wait, as the reference's save keeps its orphans.
    ///
    /// - Throws: ``AutomergeError/Kind/unsavableValue``, naming the change, when the document chunk
    ///   cannot hold a value of the history: changes whose times lie at both ends of `Int64`, whose
    ///   time column's difference does not fit in 64 bits. The reference saves such a document as
    ///   bytes no loader accepts; here nothing is returned to be written, and the document is as it was
    ///   (its changes still load from, and save as, change chunks: ``changeChunks(afterFirst:)``).
    public mutating func save() throws(AutomergeError) -> [UInt8] {
        commit()
        // Moved out and back so that encoding (which reads `self`) does not copy it.
        var cache = compressedColumns, dependencies = dependencyPositions
        compressedColumns = CompressedColumnCache()
        dependencyPositions = DependencyPositionCache()
        defer {
            compressedColumns = cache
            dependencyPositions = dependencies
        }
        var bytes = try encodedDocument(cache: &cache, dependencies: &dependencies)
        savedHistoryCount = history.count
        // Changes still waiting for their dependencies follow the document, as the reference writes them.
        for change in queue { bytes += change.bytes }
        return bytes
    }

    /// The document chunk for the current history, without committing or marking anything.
    /// - Throws: as ``save()`` does.
    public func encodedDocument() throws(AutomergeError) -> [UInt8] {
        var cache = CompressedColumnCache(), dependencies = DependencyPositionCache()
        return try encodedDocument(cache: &cache, dependencies: &dependencies)
    }

    /// ``encodedDocument()``, reusing the compressed columns in `cache` that did not change and the
    /// dependency positions already looked up.
    func encodedDocument(cache: inout CompressedColumnCache, dependencies: inout DependencyPositionCache) throws(AutomergeError) -> [UInt8] {
        let set = operationSet
        // Actors of the changes, sorted; operation ids are renumbered into that table.
        let changeActors = sequenceByActor.keys.sorted()  // every actor with a change in the history
        var chunkActor = [Int](repeating: 0, count: set.actors.count)
        for (position, actor) in changeActors.enumerated() {
            if let index = set.existingIndex(of: actor) { chunkActor[Int(index)] = position }
        }

        var rows: [DocumentChunk.ChangeRow] = []
        rows.reserveCapacity(history.count)
        let actorPosition = Dictionary(uniqueKeysWithValues: changeActors.enumerated().map { ($1, $0) })
        dependencies.extend(history, index: historyIndex)
        for (position, change) in history.enumerated() {
            rows.append(DocumentChunk.ChangeRow(
                actor: actorPosition[change.actor] ?? 0, sequence: change.sequence, maxOperation: change.maxOperation,
                time: change.time, message: change.message,
                dependencies: SmallList(dependencies.dependencies(ofChange: position)), extraBytes: change.extraBytes))
        }

        // Operations in document order: objects by id, map keys by their bytes, sequence
        // elements in list order; encoded straight from the op set.
        let properties = set.properties
        var propertyRank = [Int](repeating: 0, count: properties.count)
        // Compared by their first eight bytes (zero-padded, big-endian) first: that order agrees
        // with byte order whenever they differ, and needs no access to the strings.
        let prefixes = properties.map { property -> UInt64 in
            var prefix: UInt64 = 0
            for index in 0..<8 { prefix = prefix << 8 | UInt64(index < property.utf8.count ? property.utf8[index] : 0) }
            return prefix
        }
        let byBytes = properties.indices.sorted { left, right in
            prefixes[left] != prefixes[right] ? prefixes[left] < prefixes[right] : bytesPrecede(properties[left].utf8, properties[right].utf8)
        }
        for (rank, property) in byBytes.enumerated() {
            propertyRank[property] = rank
        }
        var encoder = OperationColumnEncoder()
        let order = set.lamportOrder
        // The root first, then Lamport order: each id packed as counter << 32 | actor rank, so the
        // sort compares plain integers (a document has an object per record, comment and list).
        // Each object is kept with its place in the dictionary, so it is read without hashing its id again.
        typealias ObjectPosition = Dictionary<OpID, ObjectState>.Index
        var packed: [(key: UInt64, position: ObjectPosition)] = []
        packed.reserveCapacity(set.objects.count)
        var rootPosition: ObjectPosition?, fitsInPacking = true
        var position = set.objects.startIndex
        while position != set.objects.endIndex {
            let id = set.objects.keys[position]
            if id.isRoot {
                rootPosition = position
            } else if id.counter < 1 << 32 {
                packed.append((id.counter << 32 | UInt64(UInt32(bitPattern: order.actorRank[Int(id.actor)])), position))
            } else {
                fitsInPacking = false
            }
            set.objects.formIndex(after: &position)
        }
        var objectPositions: [ObjectPosition]
        if fitsInPacking {
            packed.sort { $0.key < $1.key }
            objectPositions = rootPosition.map { [$0] } ?? []
            objectPositions.reserveCapacity(packed.count + 1)
            for entry in packed { objectPositions.append(entry.position) }
        } else {
            let objectIDs = set.objects.keys.sorted { $0.isRoot ? !$1.isRoot : ($1.isRoot ? false : order.precedes($0, $1)) }
            objectPositions = objectIDs.compactMap { set.objects.index(forKey: $0) }
        }
        for objectPosition in objectPositions {
            let object = set.objects.values[objectPosition]
            if object.type?.isSequence == true {
                for store in object.order {
                    for index in object.elementStore[store].operations {
                        Self.encode(set.operations[index], chunkActor: chunkActor, properties: properties, into: &encoder)
                    }
                }
            } else {
                for (_, indices) in object.keys.sorted(by: { propertyRank[$0.key] < propertyRank[$1.key] }) {
                    for index in indices {
                        Self.encode(set.operations[index], chunkActor: chunkActor, properties: properties, into: &encoder)
                    }
                }
            }
        }

        var chunk = DocumentChunk(actors: changeActors, heads: heads, changes: rows, operations: [])
        for head in chunk.heads { chunk.headIndices[head] = historyIndex[head] }
        do {
            return try chunk.encode(operationColumns: encoder.columns(layout: .document), cache: &cache)
        } catch {
            throw unsavable(error)
        }
    }

    /// The error ``save()`` throws for a change column that cannot hold a change's value: the change
    /// (its hash, actor and sequence number), the column and the two values.
    private func unsavable(_ overflow: DocumentChunk.ColumnOverflow) -> AutomergeError {
        let change = history.indices.contains(overflow.row) ? history[overflow.row] : nil
        let named = change.map { "change \($0.hash.hexString) (actor \($0.actor), sequence number \($0.sequence))" } ?? "change \(overflow.row + 1)"
        return AutomergeError(
            .unsavableValue,
            "\(named) cannot be saved in a document chunk: its \(overflow.column) \(overflow.value) differs from the previous change's "
                + "\(overflow.previous) by more than 64 bits hold, and a file saved so would not load (its changes load from change chunks)")
    }

    /// Appends one operation to a document chunk's columns, its actors renumbered by `chunkActor`.
    private static func encode(
        _ operation: borrowing Operation, chunkActor: [Int], properties: [ColumnString], into encoder: inout OperationColumnEncoder
    ) {
        @inline(__always) func chunkID(_ id: OpID) -> ChunkOpID { ChunkOpID(counter: id.counter, actor: chunkActor[Int(id.actor)]) }
        let key: ChunkKey
        switch operation.key {
        case .property(let property): key = .property(properties[property])
        case .element(let element): key = element.isRoot ? .head : .element(chunkID(element))
        }
        encoder.appendOperation(
            id: chunkID(operation.id), object: operation.object.isRoot ? nil : chunkID(operation.object), key: key,
            insert: operation.insert, action: operation.action, value: operation.value,
            referenceCount: operation.successors.count, expand: operation.expand, markName: operation.markName,
            layout: .document)
        for successor in operation.successors { encoder.appendReference(chunkID(successor)) }
    }

    /// The change chunks of the changes after the first `count` of the history (the order
    /// ``changes`` lists), one after another. Appended to a file that holds exactly those first
    /// `count` changes, they give a file that loads to this document: the reference and
    /// automerge-swift load concatenated chunks. Costs what the new changes cost, not the history.
    public mutating func changeChunks(afterFirst count: Int) -> [UInt8] {
        commit()
        var bytes: [UInt8] = []
        for change in history[min(max(count, 0), history.count)...] { bytes += change.bytes }
        return bytes
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
