/// A change as the format stores it: its chunk bytes, its metadata and its decoded operations.
///
/// Operation ids, object ids, keys and predecessors index into ``actors`` (the author first, then
/// the other actors the change mentions, sorted), exactly as in the change chunk.
struct StoredChange: Sendable {
    var hash: ChangeHash
    /// The whole uncompressed change chunk, header included.
    var bytes: [UInt8]
    var actors: [ActorID]
    var sequence: UInt64
    var startOperation: UInt64
    var time: Int64
    var message: String?
    var dependencies: SmallList<ChangeHash>
    var extraBytes: [UInt8]
    /// The decoded operations; empty in a document's history, which keeps only the bytes (see
    /// ``withoutOperations()``) to save memory.
    var operations: [ChunkOperation]
    let operationCount: Int
    /// For a change read from a change chunk whose encoding has not been checked yet, where the
    /// chunk starts in its file (``requireCanonicalEncoding()`` checks it when the change is
    /// applied); `nil` for a change built or re-encoded here.
    var uncheckedChunkOffset: Int? = nil

    var actor: ActorID { actors[0] }
    var maxOperation: UInt64 { startOperation + UInt64(operationCount) - 1 }

    /// The change without its decoded operations: what a history keeps (the bytes hold them).
    func withoutOperations() -> StoredChange {
        var copy = self
        copy.operations = []
        return copy
    }

    /// The change with its operations, decoded again from its bytes when they were dropped.
    ///
    /// The message stays as it was: a change chunk cannot tell an empty message from none, but a
    /// change rebuilt from a document chunk can (its message column holds `""` or null), and the
    /// reference keeps what the document chunk said.
    func withOperations() throws(AutomergeError) -> StoredChange {
        guard operations.count != operationCount else { return self }
        var reader = ByteReader(bytes)
        var decoded = try StoredChange.parse(try Chunk.read(from: &reader))
        decoded.message = message
        return decoded
    }
}

extension StoredChange {
    /// Parses the contents of a change chunk (after its header).
    static func parse(_ chunk: Chunk.Parsed) throws(AutomergeError) -> StoredChange {
        var reader = ByteReader(chunk.bytes, range: chunk.contents)
        let dependencyCount = try reader.readLength()
        guard dependencyCount <= reader.remainingCount / 32 else {
            throw .truncated(at: reader.end, needed: dependencyCount * 32 - reader.remainingCount)
        }
        var dependencies = SmallList<ChangeHash>()
        for _ in 0..<dependencyCount {
            dependencies.append(ChangeHash(bytes: try reader.readBytes(count: 32)))
        }
        let actor = ActorID(bytes: try reader.readBytes(count: try reader.readLength()))
        let sequence = try reader.readUnsignedLEB128()
        let startOffset = reader.position
        let startOperation = try reader.readUnsignedLEB128()
        guard startOperation > 0 else {
            throw AutomergeError(.invalidValue, "change start op is zero", at: startOffset)
        }
        guard startOperation <= UInt64(UInt32.max) else {
            throw AutomergeError(.invalidValue, "change start op \(startOperation) is too large (counter too large)", at: startOffset)
        }
        let time = try reader.readSignedLEB128()
        let message = try reader.readUTF8(count: try reader.readLength())
        let otherCount = try reader.readLength()
        guard otherCount <= reader.remainingCount else { throw .truncated(at: reader.end, needed: otherCount - reader.remainingCount) }
        var actors = [actor]
        for _ in 0..<otherCount {
            actors.append(ActorID(bytes: try reader.readBytes(count: try reader.readLength())))
        }
        var layout = try ColumnLayout.readMetadata(from: &reader)
        try layout.validateGroups([(ColumnID.predecessorGroup, [ColumnID.predecessorActor, ColumnID.predecessorCounter])])
        if let deflated = layout.columns.first(where: { $0.specification.isDeflated }) {
            throw AutomergeError(.invalidColumns, "change chunk has a deflated column (\(deflated.specification.rawValue))")
        }
        let dataStart = reader.position
        _ = try reader.readRange(count: layout.totalLength)
        let extraBytes = Array(chunk.bytes[reader.position..<reader.end])
        let shifted = ColumnLayout(
            columns: layout.columns.map { .init(specification: $0.specification, range: ($0.range.lowerBound + dataStart)..<($0.range.upperBound + dataStart)) },
            totalLength: layout.totalLength)
        let operations = try OperationColumns.decode(
            chunk.bytes, layout: shifted, as: .change, actorCount: actors.count, changeStart: startOperation)
        guard startOperation + UInt64(operations.count) <= UInt64(UInt32.max) else {
            throw AutomergeError(.invalidValue, "change op counters exceed 32 bits (counter too large)")
        }
        let header = chunk.contents.lowerBound
        let bytes: [UInt8]
        if chunk.wasCompressed {
            bytes = Chunk.encode(type: .change, contents: Array(chunk.bytes[chunk.contents])).bytes
        } else {
            // The chunk header sits just before the contents: magic, checksum, type, length.
            let headerLength = 9 + LEB128.unsignedSize(UInt64(chunk.contents.count))
            bytes = Array(chunk.bytes[(header - headerLength)..<chunk.contents.upperBound])
        }
        return StoredChange(
            hash: ChangeHash(bytes: chunk.hash), bytes: bytes, actors: actors, sequence: sequence,
            startOperation: startOperation, time: time, message: message.isEmpty ? nil : message,
            dependencies: dependencies, extraBytes: extraBytes, operations: operations, operationCount: operations.count)
    }

    /// Parses a change chunk read from a file; its encoding is checked when it is applied
    /// (``requireCanonicalEncoding()``), not before: a change that waits for missing dependencies
    /// is kept, and saved, as the bytes it was read as, as the reference keeps it.
    static func parseFromFile(_ chunk: Chunk.Parsed) throws(AutomergeError) -> StoredChange {
        var change = try parse(chunk)
        change.uncheckedChunkOffset = chunk.fileOffset
        return change
    }

    /// Refuses a change read from a file that is not encoded exactly as its operations encode
    /// (stray bytes in a column, an unused or repeated actor, predecessors out of order, ...).
    ///
    /// A document keeps a change as its operations and recomputes the change's hash from them
    /// when it is loaded, so such a change, once applied, would make every later save of the
    /// document fail to load ("mismatching heads"). The reference applies it all the same.
    func requireCanonicalEncoding() throws(AutomergeError) {
        guard let offset = uncheckedChunkOffset else { return }
        let change = try withOperations()
        var operations = change.operations
        for index in operations.indices where operations[index].references.count > 1 {
            operations[index].references.sort { ($0.counter, change.actors[$0.actor]) < ($1.counter, change.actors[$1.actor]) }
        }
        let rebuilt = StoredChange.build(
            author: 0, actorTable: change.actors, sequence: change.sequence, startOperation: change.startOperation,
            time: change.time, message: change.message, dependencies: Array(change.dependencies),
            extraBytes: change.extraBytes, operations: operations)
        guard rebuilt.hash == change.hash else {
            throw AutomergeError(
                .invalidColumns, "change \(change.sequence) of actor \(change.actor) is not encoded as its operations encode",
                at: offset)
        }
    }

    /// Builds a change chunk. `operations` index actors in `actorTable`; `author` is the index of
    /// the change's actor there. Operations must be in counter order and their references sorted.
    static func build(
        author: Int, actorTable: [ActorID], sequence: UInt64, startOperation: UInt64, time: Int64,
        message: String?, dependencies: [ChangeHash], extraBytes: [UInt8], operations: [ChunkOperation]
    ) -> StoredChange {
        var encoder = OperationColumnEncoder()
        return build(author: author, actorTable: actorTable, sequence: sequence, startOperation: startOperation, time: time,
                     message: message, dependencies: dependencies, extraBytes: extraBytes, operations: operations, encoder: &encoder)
    }

    /// ``build(author:actorTable:sequence:startOperation:time:message:dependencies:extraBytes:operations:)``
    /// with a column encoder reused across calls.
    static func build(
        author: Int, actorTable: [ActorID], sequence: UInt64, startOperation: UInt64, time: Int64,
        message: String?, dependencies: [ChangeHash], extraBytes: [UInt8], operations: consuming [ChunkOperation],
        encoder: inout OperationColumnEncoder
    ) -> StoredChange {
        // The actors the change mentions besides its author, sorted by their bytes. Changes mention
        // few actors, so small arrays beat sets and dictionaries here.
        var translated = operations
        var others: [Int] = []
        func mention(_ actor: Int) {
            if actor != author && !others.contains(actor) { others.append(actor) }
        }
        for operation in translated {
            if let object = operation.object { mention(object.actor) }
            if case .element(let element) = operation.key { mention(element.actor) }
            for reference in operation.references { mention(reference.actor) }
        }
        others.sort { actorTable[$0] < actorTable[$1] }
        @inline(__always) func local(_ actor: Int) -> Int {
            actor == author ? 0 : (others.firstIndex(of: actor).map { $0 + 1 } ?? 0)
        }
        func translate(_ id: ChunkOpID) -> ChunkOpID { ChunkOpID(counter: id.counter, actor: local(id.actor)) }
        for index in translated.indices {
            translated[index].id.actor = local(translated[index].id.actor)
            if let object = translated[index].object { translated[index].object = translate(object) }
            if case .element(let element) = translated[index].key { translated[index].key = .element(translate(element)) }
            if !translated[index].references.isEmpty {
                for position in translated[index].references.indices {
                    translated[index].references[position].actor = local(translated[index].references[position].actor)
                }
            }
        }
        let actors = [actorTable[author]] + others.map { actorTable[$0] }
        let sortedDependencies = dependencies.sorted()

        var contents: [UInt8] = []
        contents.appendLength(sortedDependencies.count)
        for dependency in sortedDependencies { dependency.append(to: &contents) }
        contents.appendPrefixed(actors[0].bytes)
        contents.appendUnsignedLEB128(sequence)
        contents.appendUnsignedLEB128(startOperation)
        contents.appendSignedLEB128(time)
        contents.appendPrefixed(Array((message ?? "").utf8))
        contents.appendLength(actors.count - 1)
        for actor in actors.dropFirst() { contents.appendPrefixed(actor.bytes) }
        encoder.reset()
        encoder.append(translated, layout: .change)
        encoder.writeColumns(layout: .change, to: &contents)
        contents.append(contentsOf: extraBytes)
        let (bytes, hash) = Chunk.encode(type: .change, contents: contents)
        return StoredChange(
            hash: hash, bytes: bytes, actors: actors, sequence: sequence,
            startOperation: startOperation, time: time, message: message,
            dependencies: SmallList(sortedDependencies), extraBytes: extraBytes, operations: translated, operationCount: translated.count)
    }
}
