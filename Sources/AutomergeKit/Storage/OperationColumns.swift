/// The operation columns shared by change chunks and document chunks.
///
/// A change chunk has no id columns (ids follow from the change's start op) and stores
/// predecessors in group 7; a document chunk stores ids and successors in group 8.
enum OperationColumns {
    /// The most operations one chunk may hold: ten times a month of ten thousand records (a ten-year store holds
    /// about a million in all), small enough that a hostile file cannot exhaust memory.
    static let maximumOperationCount = 1 << 20
    enum Layout {
        case change
        case document

        var referenceGroup: ColumnSpecification { self == .change ? ColumnID.predecessorGroup : ColumnID.successorGroup }
        var referenceActor: ColumnSpecification { self == .change ? ColumnID.predecessorActor : ColumnID.successorActor }
        var referenceCounter: ColumnSpecification { self == .change ? ColumnID.predecessorCounter : ColumnID.successorCounter }
    }

    /// Encodes operations into columns in the reference's order; empty columns are omitted by
    /// ``ColumnLayout/writeMetadata(_:to:)``.
    static func encode(_ operations: [ChunkOperation], layout: Layout) -> [(ColumnSpecification, [UInt8])] {
        var encoder = OperationColumnEncoder()
        encoder.append(operations, layout: layout)
        return encoder.columns(layout: layout).map { ($0.0, $0.1) }
    }

    /// Decodes operations. For a change, `changeStart` gives the first op's counter and actor 0
    /// (the change's author) owns every op; `actorCount` bounds every actor index.
    static func decode(
        _ data: [UInt8], layout columns: ColumnLayout, as layout: Layout,
        actorCount: Int, changeStart: UInt64 = 0
    ) throws(AutomergeError) -> [ChunkOperation] {
        var operations: [ChunkOperation] = []
        try decodeEach(data, layout: columns, as: layout, actorCount: actorCount, changeStart: changeStart) { (operation: ChunkOperation) throws(AutomergeError) in
            operations.append(operation)
        }
        return operations
    }

    /// ``decode(_:layout:as:actorCount:changeStart:)`` one operation at a time, for callers that
    /// turn operations into another shape: no array of them is built. An operation whose
    /// references `body` does not keep costs no allocation for them. Stops after `limit` operations.
    static func decodeEach(
        _ data: [UInt8], layout columns: ColumnLayout, as layout: Layout,
        actorCount: Int, changeStart: UInt64 = 0, limit: Int = .max, _ body: (ChunkOperation) throws(AutomergeError) -> Void
    ) throws(AutomergeError) {
        try decodeFields(data, layout: columns, as: layout, actorCount: actorCount, changeStart: changeStart, limit: limit) {
            (id, object, key, insert, action, value, references, expand, markName) throws(AutomergeError) in
            try body(ChunkOperation(
                id: id, object: object, key: key, insert: insert, action: action, value: value,
                references: references, expand: expand, markName: markName))
        }
    }

    /// ``decodeEach(_:layout:as:actorCount:changeStart:limit:_:)`` handing each operation's fields
    /// to `body` (in the order of ``ChunkOperation``'s) without making a ``ChunkOperation``: a
    /// loaded document turns each one into its own operation at once, and the copy of a
    /// ``ChunkOperation`` built field by field would be a tenth of the decoding.
    @inline(__always)
    static func decodeFields(
        _ data: [UInt8], layout columns: ColumnLayout, as layout: Layout,
        actorCount: Int, changeStart: UInt64 = 0, limit: Int = .max,
        _ body: (ChunkOpID, ChunkOpID?, consuming ChunkKey, Bool, Action, consuming ScalarValue, [ChunkOpID], Bool, consuming ColumnString?) throws(AutomergeError) -> Void
    ) throws(AutomergeError) {
        var objectActor = RLEDecoder<UInt64>(data, range: columns.range(of: ColumnID.objectActor))
        var objectCounter = RLEDecoder<UInt64>(data, range: columns.range(of: ColumnID.objectCounter))
        var keyActor = RLEDecoder<UInt64>(data, range: columns.range(of: ColumnID.keyActor))
        var keyCounter = DeltaDecoder(data, range: columns.range(of: ColumnID.keyCounter))
        var keyString = RLEDecoder<ColumnString>(data, range: columns.range(of: ColumnID.keyString))
        var idActor = RLEDecoder<UInt64>(data, range: columns.range(of: ColumnID.idActor))
        var idCounter = DeltaDecoder(data, range: columns.range(of: ColumnID.idCounter))
        var insert = BooleanDecoder(data, range: columns.range(of: ColumnID.insert))
        var action = RLEDecoder<UInt64>(data, range: columns.range(of: ColumnID.action))
        var values = ValueDecoder(data, metadata: columns.range(of: ColumnID.valueMetadata), raw: columns.range(of: ColumnID.value))
        var referenceCount = RLEDecoder<UInt64>(data, range: columns.range(of: layout.referenceGroup))
        var referenceActor = RLEDecoder<UInt64>(data, range: columns.range(of: layout.referenceActor))
        var referenceCounter = DeltaDecoder(data, range: columns.range(of: layout.referenceCounter))
        var expand = BooleanDecoder(data, range: columns.range(of: ColumnID.expand))
        var markName = RLEDecoder<ColumnString>(data, range: columns.range(of: ColumnID.markName))

        // Inlined: both run for several columns of every operation, and a call costs more than
        // their checks.
        @inline(__always)
        func actorIndex(_ raw: UInt64?, _ column: StaticString) throws(AutomergeError) -> Int {
            guard let raw else { throw AutomergeError(.invalidColumns, "unexpected null in column \(column)") }
            guard raw < UInt64(actorCount) else {
                throw AutomergeError(.missingActor, "an operation referenced a missing actor (index \(raw))")
            }
            return Int(raw)
        }
        @inline(__always)
        func counter(_ raw: Int64?, _ column: StaticString) throws(AutomergeError) -> UInt64 {
            guard let raw else { throw AutomergeError(.invalidColumns, "unexpected null in column \(column)") }
            guard raw >= 0, raw <= Int64(UInt32.max) else {
                throw AutomergeError(.invalidColumns, "counter \(raw) in column \(column) is negative or too large")
            }
            return UInt64(raw)
        }

        var keyStrings = ColumnStringCache()
        var decodedCount = 0
        var references: [ChunkOpID] = []
        var index: UInt64 = 0
        while decodedCount < limit {
            // Run-length encoding lets a few bytes describe billions of identical rows; no real
            // document comes near this many operations in one chunk.
            guard decodedCount < OperationColumns.maximumOperationCount else {
                throw AutomergeError(.invalidColumns, "more than \(OperationColumns.maximumOperationCount) operations in one chunk")
            }
            let id: ChunkOpID
            switch layout {
            case .change:
                if action.isAtEnd { return }
                id = ChunkOpID(counter: changeStart + index, actor: 0)
            case .document:
                // The id counter column gives the rows, as in the reference: bytes after the last
                // row of another column are not read.
                if idCounter.isAtEnd { return }
                let actor = try actorIndex(try idActor.next(), "id actor")
                id = ChunkOpID(counter: try counter(try idCounter.next(), "id counter"), actor: actor)
            }
            index += 1

            guard let rawAction = try action.next() else {
                throw AutomergeError(.invalidColumns, "unexpected null in column action")
            }
            guard let decodedAction = Action(rawValue: rawAction) else {
                throw AutomergeError(.invalidOperation, "unrecognized action index \(rawAction)")
            }

            let object: ChunkOpID?
            switch (try objectActor.next(), try objectCounter.next()) {
            case (nil, nil), (_, 0?): object = nil
            case let (actor?, counterValue?):
                guard counterValue <= UInt64(UInt32.max) else {
                    throw AutomergeError(.invalidColumns, "object counter \(counterValue) is too large")
                }
                object = ChunkOpID(counter: counterValue, actor: try actorIndex(actor, "object actor"))
            case (nil, _?): throw AutomergeError(.invalidColumns, "unexpected null in column object actor")
            case (_?, nil): throw AutomergeError(.invalidColumns, "unexpected null in column object counter")
            }

            let key: ChunkKey
            switch (try keyActor.next(), try keyCounter.next(), try keyString.next(cache: &keyStrings)) {
            case (_?, _?, _?): throw AutomergeError(.invalidColumns, "key has an actor, a counter and a string")
            case (nil, nil, let name?): key = .property(name)
            case (nil, 0?, nil): key = .head
            case let (actor?, counterValue?, nil):
                key = .element(ChunkOpID(counter: try counter(counterValue, "key counter"), actor: try actorIndex(actor, "key actor")))
            case (nil, nil, nil): throw AutomergeError(.invalidColumns, "operation has no key")
            case (nil, _, _): throw AutomergeError(.invalidColumns, "unexpected null in column key actor")
            case (_, nil, _): throw AutomergeError(.invalidColumns, "unexpected null in column key counter")
            }

            guard let value = try values.next() else {
                throw AutomergeError(.invalidColumns, "unexpected null in column value")
            }
            if decodedAction == .increment {
                switch value {
                case .int, .uint: break
                default: throw AutomergeError(.invalidOperation, "increment with a non-numeric value")
                }
            }
            guard let count = try referenceCount.next() else {
                throw AutomergeError(.invalidColumns, "unexpected null in column \(layout == .change ? "pred" : "succ") count")
            }
            guard count <= UInt64(data.count) else {
                throw AutomergeError(.invalidColumns, "\(count) references cannot fit in the column")
            }
            // Reused when the previous operation's references were not kept.
            if !references.isEmpty { references.removeAll(keepingCapacity: true) }
            if count > 0 { references.reserveCapacity(Int(count)) }
            for _ in 0..<count {
                let actor = try actorIndex(try referenceActor.next(), "reference actor")
                references.append(ChunkOpID(counter: try counter(try referenceCounter.next(), "reference counter"), actor: actor))
            }
            guard let isInsert = try insert.next() else {
                throw AutomergeError(.invalidColumns, "unexpected null in column insert (the column is missing or short)")
            }
            let expandFlag = try expand.next() ?? false
            let mark = try markName.next()
            decodedCount += 1
            // What the reference keeps of each field for the action: a value only for sets,
            // increments (as a signed integer) and mark starts; expand and a name only for marks.
            // A document's changes are re-encoded from these to check its heads, so keeping
            // more would make a document the reference loads fail that check here. (A change
            // chunk re-encoded from them no longer gives its hash, and is refused: see
            // `StoredChange.requireCanonicalEncoding`; a deletion in one keeps its value
            // so that `OperationSet.apply` names what is wrong with it.)
            let kept: ScalarValue
            switch decodedAction {
            case .set: kept = value
            case .increment:
                if case .uint(let step) = value { kept = .int(Int64(truncatingIfNeeded: step)) } else { kept = value }
            case .mark: kept = mark == nil ? .null : value
            case .delete: kept = layout == .change ? value : .null
            case .makeMap, .makeList, .makeText, .makeTable: kept = .null
            }
            let isMark = decodedAction == .mark
            // The key, the value and the name move into `body` (no copies to count and drop).
            try body(id, object, consume key, isInsert, decodedAction, consume kept, references, isMark && expandFlag, isMark ? consume mark : nil)
        }
    }
}

/// The column encoders for operations, reusable: building thousands of small change chunks (when
/// a document chunk is loaded) then allocates no new buffers per change.
struct OperationColumnEncoder {
    private var objectActor = RLEEncoder<UInt64>(), objectCounter = RLEEncoder<UInt64>()
    private var keyActor = RLEEncoder<UInt64>(), keyCounter = DeltaEncoder(), keyString = RLEEncoder<ColumnString>()
    private var idActor = RLEEncoder<UInt64>(), idCounter = DeltaEncoder()
    private var insert = BooleanEncoder(), action = RLEEncoder<UInt64>()
    private var values = ValueEncoder()
    private var referenceCount = RLEEncoder<UInt64>(), referenceActor = RLEEncoder<UInt64>(), referenceCounter = DeltaEncoder()
    private var expand = BooleanEncoder(), markName = RLEEncoder<ColumnString>()

    init() {}

    mutating func reset() {
        objectActor.reset(); objectCounter.reset()
        keyActor.reset(); keyCounter.reset(); keyString.reset()
        idActor.reset(); idCounter.reset()
        insert.reset(); action.reset(); values.reset()
        referenceCount.reset(); referenceActor.reset(); referenceCounter.reset()
        expand.reset(); markName.reset()
    }

    mutating func append(_ operations: [ChunkOperation], layout: OperationColumns.Layout) {
        for operation in operations {
            appendOperation(
                id: operation.id, object: operation.object, key: operation.key, insert: operation.insert,
                action: operation.action, value: operation.value, referenceCount: operation.references.count,
                expand: operation.expand, markName: operation.markName, layout: layout)
            for reference in operation.references { appendReference(reference) }
        }
    }

    /// Appends one operation without its references, which follow with ``appendReference(_:)``
    /// (`referenceCount` of them). Lets callers encode operations they hold in another shape
    /// without building a ``ChunkOperation`` first.
    @inline(__always)
    mutating func appendOperation(
        id: ChunkOpID, object: ChunkOpID?, key: ChunkKey, insert isInsert: Bool, action operationAction: Action,
        value: ScalarValue, referenceCount count: Int, expand isExpand: Bool, markName name: ColumnString?,
        layout: OperationColumns.Layout
    ) {
        if let object {
            objectActor.appendValue(UInt64(object.actor))
            objectCounter.appendValue(object.counter)
        } else {
            objectActor.appendNull()
            objectCounter.appendNull()
        }
        switch key {
        case .property(let name):
            keyString.appendValue(name)
            keyActor.appendNull()
            keyCounter.append(nil)
        case .head:
            keyString.appendNull()
            keyActor.appendNull()
            keyCounter.append(0)
        case .element(let id):
            keyString.appendNull()
            keyActor.appendValue(UInt64(id.actor))
            keyCounter.append(Int64(id.counter))
        }
        if layout == .document {
            idActor.appendValue(UInt64(id.actor))
            idCounter.append(Int64(id.counter))
        }
        insert.append(isInsert)
        action.appendValue(operationAction.rawValue)
        values.append(value)
        referenceCount.appendValue(UInt64(count))
        expand.append(isExpand)
        markName.append(name)
    }

    /// Appends one reference (predecessor or successor) of the operation appended last.
    @inline(__always)
    mutating func appendReference(_ reference: ChunkOpID) {
        referenceActor.appendValue(UInt64(reference.actor))
        referenceCounter.append(Int64(reference.counter))
    }

    private mutating func flushAll() {
        objectActor.flush(); objectCounter.flush()
        keyActor.flush(); keyCounter.flush(); keyString.flush()
        idActor.flush(); idCounter.flush()
        insert.flush(); action.flush(); values.flush()
        referenceCount.flush(); referenceActor.flush(); referenceCounter.flush()
        expand.flush(); markName.flush()
    }

    /// The positions of ``column(_:layout:)`` a layout has, in the reference's order.
    private static let changePositions = [0, 1, 2, 3, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    private static let documentPositions = Array(0...15)

    /// One column by its position in the reference's order (after ``flushAll()``).
    private func column(_ position: Int, layout: OperationColumns.Layout) -> (ColumnSpecification, [UInt8]) {
        switch position {
        case 0: (ColumnID.objectActor, objectActor.output)
        case 1: (ColumnID.objectCounter, objectCounter.output)
        case 2: (ColumnID.keyActor, keyActor.output)
        case 3: (ColumnID.keyCounter, keyCounter.output)
        case 4: (ColumnID.keyString, keyString.output)
        case 5: (ColumnID.idActor, idActor.output)
        case 6: (ColumnID.idCounter, idCounter.output)
        case 7: (ColumnID.insert, insert.output)
        case 8: (ColumnID.action, action.output)
        case 9: (ColumnID.valueMetadata, values.metadataOutput)
        case 10: (ColumnID.value, values.raw)
        case 11: (layout.referenceGroup, referenceCount.output)
        case 12: (layout.referenceActor, referenceActor.output)
        case 13: (layout.referenceCounter, referenceCounter.output)
        case 14: (ColumnID.expand, expand.sawTrue ? expand.output : [])
        default: (ColumnID.markName, markName.output)
        }
    }

    /// Flushes every encoder and returns the columns in the reference's order (some may be empty).
    mutating func columns(layout: OperationColumns.Layout) -> [(ColumnSpecification, [UInt8])] {
        flushAll()
        return (layout == .change ? Self.changePositions : Self.documentPositions).map { column($0, layout: layout) }
    }

    /// Flushes every encoder and writes the column metadata, then the column data, to `output`,
    /// leaving out empty columns: what ``ColumnLayout/writeMetadata(_:to:)`` and the data would
    /// give, without building the column list (this runs once per change a document holds).
    mutating func writeColumns(layout: OperationColumns.Layout, to output: inout [UInt8]) {
        flushAll()
        let document = layout == .document
        let withExpand = expand.sawTrue
        var present = 0
        present += objectActor.output.isEmpty ? 0 : 1
        present += objectCounter.output.isEmpty ? 0 : 1
        present += keyActor.output.isEmpty ? 0 : 1
        present += keyCounter.rle.output.isEmpty ? 0 : 1
        present += keyString.output.isEmpty ? 0 : 1
        if document {
            present += idActor.output.isEmpty ? 0 : 1
            present += idCounter.rle.output.isEmpty ? 0 : 1
        }
        present += insert.output.isEmpty ? 0 : 1
        present += action.output.isEmpty ? 0 : 1
        present += values.metadata.output.isEmpty ? 0 : 1
        present += values.raw.isEmpty ? 0 : 1
        present += referenceCount.output.isEmpty ? 0 : 1
        present += referenceActor.output.isEmpty ? 0 : 1
        present += referenceCounter.rle.output.isEmpty ? 0 : 1
        present += withExpand && !expand.output.isEmpty ? 1 : 0
        present += markName.output.isEmpty ? 0 : 1
        output.appendLength(present)

        Self.describe(ColumnID.objectActor, objectActor.output, &output)
        Self.describe(ColumnID.objectCounter, objectCounter.output, &output)
        Self.describe(ColumnID.keyActor, keyActor.output, &output)
        Self.describe(ColumnID.keyCounter, keyCounter.rle.output, &output)
        Self.describe(ColumnID.keyString, keyString.output, &output)
        if document {
            Self.describe(ColumnID.idActor, idActor.output, &output)
            Self.describe(ColumnID.idCounter, idCounter.rle.output, &output)
        }
        Self.describe(ColumnID.insert, insert.output, &output)
        Self.describe(ColumnID.action, action.output, &output)
        Self.describe(ColumnID.valueMetadata, values.metadata.output, &output)
        Self.describe(ColumnID.value, values.raw, &output)
        Self.describe(layout.referenceGroup, referenceCount.output, &output)
        Self.describe(layout.referenceActor, referenceActor.output, &output)
        Self.describe(layout.referenceCounter, referenceCounter.rle.output, &output)
        if withExpand { Self.describe(ColumnID.expand, expand.output, &output) }
        Self.describe(ColumnID.markName, markName.output, &output)

        Self.appendData(objectActor.output, &output)
        Self.appendData(objectCounter.output, &output)
        Self.appendData(keyActor.output, &output)
        Self.appendData(keyCounter.rle.output, &output)
        Self.appendData(keyString.output, &output)
        if document {
            Self.appendData(idActor.output, &output)
            Self.appendData(idCounter.rle.output, &output)
        }
        Self.appendData(insert.output, &output)
        Self.appendData(action.output, &output)
        Self.appendData(values.metadata.output, &output)
        Self.appendData(values.raw, &output)
        Self.appendData(referenceCount.output, &output)
        Self.appendData(referenceActor.output, &output)
        Self.appendData(referenceCounter.rle.output, &output)
        if withExpand { Self.appendData(expand.output, &output) }
        Self.appendData(markName.output, &output)
    }

    /// Appends a column's data; a change leaves several columns empty, which then cost no call.
    @inline(__always)
    private static func appendData(_ data: [UInt8], _ output: inout [UInt8]) {
        if !data.isEmpty { output.append(contentsOf: data) }
    }

    @inline(__always)
    private static func describe(_ specification: ColumnSpecification, _ data: borrowing [UInt8], _ output: inout [UInt8]) {
        if data.isEmpty { return }
        output.appendUnsignedLEB128(UInt64(specification.rawValue))
        output.appendLength(data.count)
    }
}
