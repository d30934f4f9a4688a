/// A document chunk: the whole history in columns. Actors, heads, change metadata columns,
/// operation columns, then the index of each head in the change list.
struct DocumentChunk {
    /// One change's metadata row. `actor` indexes ``actors``; `dependencies` index earlier rows.
    struct ChangeRow {
        var actor: Int
        var sequence: UInt64
        var maxOperation: UInt64
        var time: Int64
        var message: String?
        var dependencies: SmallList<Int>
        var extraBytes: [UInt8]
    }

    var actors: [ActorID]
    var heads: [ChangeHash]
    var changes: [ChangeRow]
    /// Operations in document order; references are successors. Empty in a parsed chunk: see
    /// ``forEachOperation(_:)``.
    var operations: [ChunkOperation]

    /// The columns are DEFLATE-compressed when they are at least this long, as the reference does.
    static let compressionThreshold = 256

    static func parse(_ chunk: Chunk.Parsed) throws(AutomergeError) -> DocumentChunk {
        var reader = ByteReader(chunk.bytes, range: chunk.contents)
        let actorCount = try reader.readLength()
        guard actorCount <= reader.remainingCount else { throw .truncated(at: reader.end, needed: actorCount - reader.remainingCount) }
        var actors: [ActorID] = []
        actors.reserveCapacity(actorCount)
        for _ in 0..<actorCount {
            actors.append(ActorID(bytes: try reader.readBytes(count: try reader.readLength())))
        }
        let headCount = try reader.readLength()
        guard headCount <= reader.remainingCount / 32 else { throw .truncated(at: reader.end, needed: headCount * 32 - reader.remainingCount) }
        var heads: [ChangeHash] = []
        for _ in 0..<headCount { heads.append(ChangeHash(bytes: try reader.readBytes(count: 32))) }
        var changeLayout = try ColumnLayout.readMetadata(from: &reader)
        var operationLayout = try ColumnLayout.readMetadata(from: &reader)
        try changeLayout.validateGroups([(ColumnID.changeDependencyGroup, [ColumnID.changeDependencyIndex])])
        try operationLayout.validateGroups([(ColumnID.successorGroup, [ColumnID.successorActor, ColumnID.successorCounter])])
        let changeStart = reader.position
        _ = try reader.readRange(count: changeLayout.totalLength)
        let operationStart = reader.position
        _ = try reader.readRange(count: operationLayout.totalLength)
        if !reader.isAtEnd {
            for _ in 0..<headCount { _ = try reader.readUnsignedLEB128() }
            guard reader.isAtEnd else {
                throw AutomergeError(.invalidColumns, "there was data in a chunk left over after parsing", at: reader.position)
            }
        }
        let (changeData, changeColumns) = try changeLayout.inflated(from: chunk.bytes, dataStart: changeStart)
        let (operationData, operationColumns) = try operationLayout.inflated(from: chunk.bytes, dataStart: operationStart)
        let changes = try decodeChangeRows(changeData, changeColumns, actorCount: actors.count)
        var parsed = DocumentChunk(actors: actors, heads: heads, changes: changes, operations: [])
        parsed.operationData = operationData
        parsed.operationColumns = operationColumns
        return parsed
    }

    /// The inflated operation columns of a parsed chunk, decoded by ``forEachOperation(_:)``.
    var operationData: [UInt8] = []
    var operationColumns: ColumnLayout?

    /// How many operations the chunk lists before the first one of an object other than the root map
    /// (objects come in id order, the root first).
    func leadingRootOperationCount() throws(AutomergeError) -> Int {
        guard let operationColumns else { return operations.prefix { $0.object == nil }.count }
        var objectActor = RLEDecoder<UInt64>(operationData, range: operationColumns.range(of: ColumnID.objectActor))
        var objectCounter = RLEDecoder<UInt64>(operationData, range: operationColumns.range(of: ColumnID.objectCounter))
        var count = 0
        while !(objectActor.isAtEnd && objectCounter.isAtEnd) {
            switch (try objectActor.next(), try objectCounter.next()) {
            case (nil, nil), (_, 0?): count += 1
            default: return count
            }
            guard count < OperationColumns.maximumOperationCount else { return count }
        }
        return count
    }

    /// How many operations ``forEachOperation(limit:_:)`` will give at most: the rows of the id
    /// counter column (which gives the rows), counted without decoding the other columns; for
    /// sizing the array they go into. A column that does not decode ends the count there (the
    /// decoding that follows reports it).
    func operationCountHint() -> Int {
        guard let operationColumns else { return operations.count }
        var idCounter = RLEDecoder<Int64>(operationData, range: operationColumns.range(of: ColumnID.idCounter))
        var count = 0
        while !idCounter.isAtEnd && count < OperationColumns.maximumOperationCount {
            do { _ = try idCounter.next() } catch { return count }
            count += 1
        }
        return count
    }

    /// Calls `body` with each operation in document order: decoded from the columns of a parsed
    /// chunk (whose ``operations`` stays empty), else taken from ``operations``.
    func forEachOperation(limit: Int = .max, _ body: (ChunkOperation) throws(AutomergeError) -> Void) throws(AutomergeError) {
        if let operationColumns {
            try OperationColumns.decodeEach(operationData, layout: operationColumns, as: .document, actorCount: actors.count, limit: limit, body)
        } else {
            for operation in operations.prefix(limit) { try body(operation) }
        }
    }

    /// ``forEachOperation(limit:_:)`` handing `body` each operation's fields (see
    /// ``OperationColumns/decodeFields(_:layout:as:actorCount:changeStart:limit:_:)``).
    @inline(__always)
    func forEachOperationFields(
        _ body: (ChunkOpID, ChunkOpID?, consuming ChunkKey, Bool, Action, consuming ScalarValue, [ChunkOpID], Bool, consuming ColumnString?) throws(AutomergeError) -> Void
    ) throws(AutomergeError) {
        if let operationColumns {
            try OperationColumns.decodeFields(operationData, layout: operationColumns, as: .document, actorCount: actors.count, body)
        } else {
            for operation in operations {
                try body(operation.id, operation.object, operation.key, operation.insert, operation.action, operation.value,
                         operation.references, operation.expand, operation.markName)
            }
        }
    }

    private static func decodeChangeRows(_ data: [UInt8], _ columns: ColumnLayout, actorCount: Int) throws(AutomergeError) -> [ChangeRow] {
        var actor = RLEDecoder<UInt64>(data, range: columns.range(of: ColumnID.changeActor))
        var sequence = DeltaDecoder(data, range: columns.range(of: ColumnID.changeSequence))
        var maxOperation = DeltaDecoder(data, range: columns.range(of: ColumnID.changeMaxOperation))
        var time = DeltaDecoder(data, range: columns.range(of: ColumnID.changeTime))
        var message = RLEDecoder<ColumnString>(data, range: columns.range(of: ColumnID.changeMessage))
        var dependencyCount = RLEDecoder<UInt64>(data, range: columns.range(of: ColumnID.changeDependencyGroup))
        var dependencyIndex = DeltaDecoder(data, range: columns.range(of: ColumnID.changeDependencyIndex))
        var extra = ValueDecoder(data, metadata: columns.range(of: ColumnID.changeExtraMetadata), raw: columns.range(of: ColumnID.changeExtra))

        func required<T>(_ value: T?, _ column: String) throws(AutomergeError) -> T {
            guard let value else { throw AutomergeError(.invalidColumns, "unexpected null in change column \(column)") }
            return value
        }
        var rows: [ChangeRow] = []
        while !actor.isAtEnd {
            guard rows.count < OperationColumns.maximumOperationCount else {
                throw AutomergeError(.invalidColumns, "more than \(OperationColumns.maximumOperationCount) changes in one document chunk")
            }
            // A null actor ends the rows, as in the reference (what follows is not read).
            guard let actorIndex = try actor.next() else { break }
            guard actorIndex < UInt64(actorCount) else {
                throw AutomergeError(.missingActor, "a change referenced an actor index we couldn't find (\(actorIndex))")
            }
            let sequenceValue = try required(try sequence.next(), "seq")
            let maxValue = try required(try maxOperation.next(), "max op")
            guard sequenceValue >= 0, maxValue >= 0 else {
                throw AutomergeError(.invalidColumns, "negative sequence number or max op in change metadata")
            }
            let timeValue = try required(try time.next(), "time")
            let messageValue = try message.next()
            let count = try required(try dependencyCount.next(), "deps")
            guard count <= UInt64(data.count) else { throw AutomergeError(.invalidColumns, "dependency count \(count) is too large") }
            var dependencies = SmallList<Int>()
            for _ in 0..<count {
                let index = try required(try dependencyIndex.next(), "deps index")
                guard index >= 0, index < Int64(Int32.max) else { throw AutomergeError(.invalidColumns, "dependency index \(index) is out of range") }
                dependencies.append(Int(index))
            }
            // Past the end of its column (a short or missing column) a change has no extra bytes,
            // as in the reference; a null there is an error.
            var extraBytes: [UInt8] = []
            if !extra.isAtEnd {
                switch try extra.next() {
                case nil: throw AutomergeError(.invalidColumns, "unexpected null in change column extra bytes")
                case .bytes(let bytes)?: extraBytes = bytes
                case _?: throw AutomergeError(.invalidColumns, "incorrect value in extra bytes column")
                }
            }
            rows.append(ChangeRow(
                actor: Int(actorIndex), sequence: UInt64(sequenceValue), maxOperation: UInt64(maxValue), time: timeValue,
                message: messageValue?.string, dependencies: dependencies, extraBytes: extraBytes))
        }
        return rows
    }

    /// Encodes the chunk as the reference's `save()` does, compressing long columns.
    func encode() throws(ColumnOverflow) -> [UInt8] {
        try encode(operationColumns: OperationColumns.encode(operations, layout: .document))
    }

    /// ``encode()`` with the operation columns already encoded (``operations`` is not read).
    func encode(operationColumns: [(ColumnSpecification, [UInt8])]) throws(ColumnOverflow) -> [UInt8] {
        var cache = CompressedColumnCache()
        return try encode(operationColumns: operationColumns, cache: &cache)
    }

    /// A change column that cannot hold a row's value: its difference from the previous row's does not
    /// fit in 64 bits (a time at each end of `Int64`). Saved anyway, as the reference saves it, the
    /// column would be read back as other values, other change hashes: a file no loader accepts.
    struct ColumnOverflow: Error {
        /// The column, in words ("time", "sequence number", ...).
        var column: String
        /// The row (the change's position in the chunk) whose value cannot be written.
        var row: Int
        /// Its value and the previous row's.
        var value: Int64, previous: Int64
    }

    /// ``encode(operationColumns:)`` taking each compressed column from `cache` when its bytes did
    /// not change since the save that filled it.
    ///
    /// - Throws: ``ColumnOverflow`` when a delta-encoded change column cannot hold a value. Found
    ///   while encoding (the encoders note an overflow as they compute the delta), so a save that can
    ///   be written costs nothing more; the row is looked for only once one has overflowed. The
    ///   operation columns' deltas are of op counters, which the loaders keep below 2^32: they cannot overflow.
    func encode(operationColumns: [(ColumnSpecification, [UInt8])], cache: inout CompressedColumnCache) throws(ColumnOverflow) -> [UInt8] {
        var actorColumn = RLEEncoder<UInt64>()
        var sequence = DeltaEncoder(), maxOperation = DeltaEncoder(), time = DeltaEncoder()
        var message = RLEEncoder<ColumnString>()
        var dependencyCount = RLEEncoder<UInt64>(), dependencyIndex = DeltaEncoder()
        var extra = ValueEncoder()
        for change in changes {
            actorColumn.appendValue(UInt64(change.actor))
            sequence.append(Int64(change.sequence))
            maxOperation.append(Int64(change.maxOperation))
            time.append(change.time)
            message.append(change.message.map(ColumnString.init))
            dependencyCount.appendValue(UInt64(change.dependencies.count))
            for dependency in change.dependencies { dependencyIndex.append(Int64(dependency)) }
            extra.append(.bytes(change.extraBytes))
        }
        if time.overflowed || sequence.overflowed || maxOperation.overflowed || dependencyIndex.overflowed {
            throw firstOverflow()
        }
        let (extraMetadata, extraRaw) = extra.finish()
        let changeColumns: [(ColumnSpecification, [UInt8])] = [
            (ColumnID.changeActor, actorColumn.finish()),
            (ColumnID.changeSequence, sequence.finish()),
            (ColumnID.changeMaxOperation, maxOperation.finish()),
            (ColumnID.changeTime, time.finish()),
            (ColumnID.changeMessage, message.finish()),
            (ColumnID.changeDependencyGroup, dependencyCount.finish()),
            (ColumnID.changeDependencyIndex, dependencyIndex.finish()),
            (ColumnID.changeExtraMetadata, extraMetadata),
            (ColumnID.changeExtra, extraRaw),
        ]

        var contents: [UInt8] = []
        contents.appendLength(actors.count)
        for actor in actors { contents.appendPrefixed(actor.bytes) }
        contents.appendLength(heads.count)
        for head in heads { head.append(to: &contents) }
        let compressedChanges = Self.compress(changeColumns, group: .changes, cache: &cache)
        let compressedOperations = Self.compress(operationColumns, group: .operations, cache: &cache)
        ColumnLayout.writeMetadata(compressedChanges.map { ($0.0, $0.1.count) }, to: &contents)
        ColumnLayout.writeMetadata(compressedOperations.map { ($0.0, $0.1.count) }, to: &contents)
        for (_, data) in compressedChanges { contents.append(contentsOf: data) }
        for (_, data) in compressedOperations { contents.append(contentsOf: data) }
        for head in heads {
            if let index = headIndices[head] { contents.appendLength(index) }
        }
        return Chunk.encode(type: .document, contents: contents).bytes
    }

    /// The first row whose value a delta-encoded change column cannot hold (after one overflowed).
    private func firstOverflow() -> ColumnOverflow {
        let columns: [(String, (ChangeRow) -> [Int64])] = [
            ("time", { [$0.time] }), ("sequence number", { [Int64(truncatingIfNeeded: $0.sequence)] }),
            ("max op", { [Int64(truncatingIfNeeded: $0.maxOperation)] }),
            ("dependency index", { $0.dependencies.map { Int64($0) } }),
        ]
        for (column, values) in columns {
            var previous: Int64 = 0
            for (row, change) in changes.enumerated() {
                for value in values(change) {
                    if value.subtractingReportingOverflow(previous).overflow {
                        return ColumnOverflow(column: column, row: row, value: value, previous: previous)
                    }
                    previous = value
                }
            }
        }
        return ColumnOverflow(column: "change", row: 0, value: 0, previous: 0)
    }

    /// For each head, its position in the change list; filled in by the caller that knows it.
    var headIndices: [ChangeHash: Int] = [:]

    private static func compress(
        _ columns: [(ColumnSpecification, [UInt8])], group: CompressedColumnCache.Group, cache: inout CompressedColumnCache
    ) -> [(ColumnSpecification, [UInt8])] {
        var result: [(ColumnSpecification, [UInt8])] = []
        result.reserveCapacity(columns.count)
        for (specification, data) in columns where !data.isEmpty {
            if data.count < compressionThreshold {
                result.append((specification, data))
            } else {
                result.append((specification.deflated, cache.compressed(data, group: group, specification: specification)))
            }
        }
        return result
    }
}
