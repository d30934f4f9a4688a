/// What a file's root map may hold and when an object last changed, without building a document.
extension Document {
    /// Every key that some operation of the file writes in the root map, whether or not a later
    /// operation deleted it: a superset of the keys ``keys(of:)`` gives once the file is loaded. A
    /// document chunk lists the root map's operations first, so decoding stops at the first
    /// operation of another object; change chunks are decoded whole.
    ///
    /// - Throws: ``AutomergeError`` for a malformed chunk.
    public static func rootKeysWritten(inFile bytes: [UInt8]) throws(AutomergeError) -> Set<String> {
        var keys: Set<String> = []
        var reader = ByteReader(bytes)
        while !reader.isAtEnd {
            let chunk = try Chunk.read(from: &reader)
            if chunk.type == .document {
                let parsed = try DocumentChunk.parse(chunk)
                try parsed.forEachOperation(limit: try parsed.leadingRootOperationCount()) { (operation: ChunkOperation) throws(AutomergeError) in
                    if operation.object == nil, case .property(let name) = operation.key { keys.insert(name.string) }
                }
            } else {
                for operation in try StoredChange.parse(chunk).operations where operation.object == nil {
                    if case .property(let name) = operation.key { keys.insert(name.string) }
                }
            }
        }
        return keys
    }

    /// The stored time of the latest change that wrote what `object` shows now: a visible value of one
    /// of its keys or elements, of an object nested in it, or the operation that made it. Nil for an
    /// object the document does not have. Times are what each device's clock said, in the unit it
    /// wrote them: `comparable` turns each into one unit before they are compared (writers differ:
    /// some store seconds, some milliseconds), and the result is in that unit.
    public func lastChangeTime(of object: ObjectID, comparable: (Int64) -> Int64 = { $0 }) -> Int64? {
        let set = operationSet
        guard let root = set.importObjectID(object), set.objects[root] != nil else { return nil }
        var operations: [OpID] = root.isRoot ? [] : [root]
        var pending = [root]
        while let id = pending.popLast() {
            guard let state = set.objects[id] else { continue }
            var visible: [Int] = state.keys.keys.flatMap { state.visibleOperations(at: $0) }
            for store in state.order where state.elementStore[store].shown >= 0 {
                visible += set.visibleOperations(state.elementStore[store].operations)
            }
            for index in visible {
                operations.append(set.operations[index].id)
                if set.operations[index].action.createdObjectType != nil { pending.append(set.operations[index].id) }
            }
        }
        // Each operation id to its change: an actor's changes hold consecutive counters.
        var byActor: [Int32: [OpID]] = [:]
        for id in operations { byActor[id.actor, default: []].append(id) }
        var latest: Int64?
        for change in history {
            guard let actor = set.existingIndex(of: change.actor), let ids = byActor[actor] else { continue }
            let range = change.startOperation..<(change.startOperation + UInt64(change.operationCount))
            if ids.contains(where: { range.contains($0.counter) }) {
                let time = comparable(change.time)
                latest = max(latest ?? time, time)
            }
        }
        return latest
    }
}
