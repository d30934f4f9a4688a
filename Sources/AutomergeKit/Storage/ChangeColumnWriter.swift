/// Writes the operation columns of one change chunk, byte for byte as ``OperationColumnEncoder``
/// does for the change layout, for the history rebuild of a loaded document.
///
/// A month document holds thousands of changes of a few operations each, so what a change costs
/// apart from its operations decides the rebuild's time. Here each operation's fields are plain
/// numbers in one reused array, column by column (a map key is its index in the property table:
/// indices are unique per byte string, so runs of indices are runs of names), and each column is
/// encoded in one pass straight into the output, after its metadata: no per-column buffers to
/// reset, flush and copy, and no strings or values retained per operation.
///
/// Mark names are not written: a change with one goes through ``OperationColumnEncoder``.
/// Counters are below 2^32 (the loader refuses others), so deltas never reach ``nullSigned``.
struct ChangeColumnWriter {
    /// The columns kept one value an operation, in the order they are written (the value
    /// column's bytes and the references are kept apart). Nullable columns hold ``nullUnsigned``
    /// or ``nullSigned`` for null; delta columns hold the bits of an `Int64`; booleans 0 or 1.
    private enum Column: Int {
        case objectActor, objectCounter, keyActor, keyCounterDelta, keyProperty, insert, action, valueMetadata
        case referenceCount, expand

        /// How many there are (``CaseIterable/allCases`` makes an array each time it is read).
        static let count = 10
    }

    static let nullUnsigned = UInt64.max
    static let nullSigned = UInt64(bitPattern: Int64.min)

    /// The change's operations column by column: column `c` of operation `r` at
    /// `c * rowCapacity + r`, so that each column is one run of memory to encode.
    private var cells: [UInt64] = []
    private var rowCapacity = 0
    private var rowCount = 0
    /// Each reference's actor and counter delta (the bits of an `Int64`), in operation order.
    private var referenceActors: [UInt64] = []
    private var referenceCounterDeltas: [UInt64] = []
    private var rawValues: [UInt8] = []
    private var previousKeyCounter: Int64 = 0
    private var previousReferenceCounter: Int64 = 0
    private var sawExpand = false
    /// Reused by ``writeColumns(properties:to:)``.
    private var scratch: [UInt8] = []
    /// The bytes the key string column can take at most: each map key's name with its length.
    private var keyStringBytes = 0

    init() {}

    /// Sizes the writer for changes of up to `operationCount` operations, so that no change of a
    /// rebuild grows it.
    mutating func reserve(operationCount: Int) {
        guard operationCount > rowCapacity else { return }
        rowCapacity = operationCount
        cells = Self.uninitialized(count: Column.count * rowCapacity)
    }

    /// An array of `count` elements that are written before they are read: only the cells of the
    /// rows appended since the last reset are ever read, so zeroing them first would be wasted.
    private static func uninitialized<Element: BitwiseCopyable>(count: Int) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// Empties the writer for a change of `operationCount` operations, keeping its buffers.
    mutating func reset(operationCount: Int) {
        if operationCount > rowCapacity { reserve(operationCount: max(operationCount, 2 * rowCapacity)) }
        rowCount = 0
        if !referenceActors.isEmpty {
            referenceActors.removeAll(keepingCapacity: true)
            referenceCounterDeltas.removeAll(keepingCapacity: true)
        }
        if !rawValues.isEmpty { rawValues.removeAll(keepingCapacity: true) }
        previousKeyCounter = 0
        previousReferenceCounter = 0
        keyStringBytes = 0
        sawExpand = false
    }

    /// Appends one operation (at most the count given to ``reset(operationCount:)``); its
    /// references follow with ``appendReference(actor:counter:)``. `object` is nil for the root;
    /// `keyProperty` is the property index of a map key, and `keyElement` the element of a
    /// sequence key (nil with `keyProperty` nil: the head); `keyLength` is the byte count of a map
    /// key's name.
    @inline(__always)
    mutating func appendOperation(
        object: ChunkOpID?, keyProperty: Int?, keyLength: Int, keyElement: ChunkOpID?, insert: Bool, action: Action,
        value: ScalarValue, referenceCount: Int, expand: Bool
    ) {
        precondition(rowCount < rowCapacity, "more operations than the change was reset for")
        var objectActor = Self.nullUnsigned, objectCounter = Self.nullUnsigned
        if let object {
            objectActor = UInt64(object.actor)
            objectCounter = object.counter
        }
        var keyActor = Self.nullUnsigned, keyCounterDelta = Self.nullSigned, keyPropertyValue = Self.nullUnsigned
        if let keyProperty {
            keyPropertyValue = UInt64(keyProperty)
            keyStringBytes += 10 + keyLength
        } else if let keyElement {
            keyActor = UInt64(keyElement.actor)
            keyCounterDelta = Self.delta(Int64(keyElement.counter), from: &previousKeyCounter)
        } else {
            keyCounterDelta = Self.delta(0, from: &previousKeyCounter)
        }
        if expand { sawExpand = true }
        let valueMetadata = ValueEncoder.appendRaw(value, to: &rawValues)
        let row = rowCount, capacity = rowCapacity
        cells.withUnsafeMutableBufferPointer { cells in
            cells[Column.objectActor.rawValue * capacity + row] = objectActor
            cells[Column.objectCounter.rawValue * capacity + row] = objectCounter
            cells[Column.keyActor.rawValue * capacity + row] = keyActor
            cells[Column.keyCounterDelta.rawValue * capacity + row] = keyCounterDelta
            cells[Column.keyProperty.rawValue * capacity + row] = keyPropertyValue
            cells[Column.insert.rawValue * capacity + row] = insert ? 1 : 0
            cells[Column.action.rawValue * capacity + row] = action.rawValue
            cells[Column.valueMetadata.rawValue * capacity + row] = valueMetadata
            cells[Column.referenceCount.rawValue * capacity + row] = UInt64(referenceCount)
            cells[Column.expand.rawValue * capacity + row] = expand ? 1 : 0
        }
        rowCount += 1
    }

    /// Appends one predecessor of the operation appended last.
    @inline(__always)
    mutating func appendReference(actor: Int, counter: UInt64) {
        referenceActors.append(UInt64(actor))
        referenceCounterDeltas.append(Self.delta(Int64(counter), from: &previousReferenceCounter))
    }

    /// The difference from the previous value as ``DeltaEncoder`` writes it, as bits.
    @inline(__always)
    private static func delta(_ value: Int64, from previous: inout Int64) -> UInt64 {
        let (difference, overflow) = value.subtractingReportingOverflow(previous)
        let written = overflow ? (value < previous ? Int64.min : Int64.max) : difference
        previous = value
        return UInt64(bitPattern: written)
    }

    /// How a column's values are written.
    private enum ValueKind {
        case unsigned, signed, property
    }

    /// Writes the column metadata, then the column data, to `output`, leaving out empty columns;
    /// `properties` names the property indices of map keys.
    mutating func writeColumns(properties: [ColumnString], to output: inout [UInt8]) {
        let rows = rowCount, capacity = rowCapacity, sawExpand = self.sawExpand
        let cells = self.cells, actors = referenceActors, deltas = referenceCounterDeltas, rawValues = self.rawValues
        // Everything is written to `scratch` through a pointer: the metadata (a count of at most
        // 14 columns, then at most 15 bytes a column) at its start, the columns from
        // `metadataRoom` on, each column's entry as soon as its length is known. The columns take
        // at most 20 bytes a value (a run header and the value).
        let metadataRoom = 256
        let bound = metadataRoom + 20 * (Column.count * rows + 2 * actors.count) + keyStringBytes + rawValues.count + 64
        if scratch.count < bound { scratch = Self.uninitialized(count: max(bound, 2 * scratch.count)) }
        // One function over pointers does the writing: closures that capture the cursors make
        // every access to them a dynamically checked one.
        let (metadataEnd, dataEnd) = scratch.withUnsafeMutableBufferPointer { buffer in
            cells.withUnsafeBufferPointer { cells in
                actors.withUnsafeBufferPointer { actors in
                    deltas.withUnsafeBufferPointer { deltas in
                        rawValues.withUnsafeBufferPointer { rawValues in
                            Self.encode(
                                into: buffer, dataStart: metadataRoom, cells: cells, rows: rows, capacity: capacity,
                                referenceActors: actors, referenceDeltas: deltas, rawValues: rawValues,
                                withExpand: sawExpand, properties: properties)
                        }
                    }
                }
            }
        }
        scratch.withUnsafeBufferPointer { buffer in
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<metadataEnd]))
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[metadataRoom..<dataEnd]))
        }
    }

    /// Writes the column metadata (a count, then each column's specification and length) at the
    /// start of `buffer` and the columns from `dataStart` on; returns where each ends.
    private static func encode(
        into buffer: UnsafeMutableBufferPointer<UInt8>, dataStart: Int, cells: UnsafeBufferPointer<UInt64>, rows: Int,
        capacity: Int, referenceActors: UnsafeBufferPointer<UInt64>, referenceDeltas: UnsafeBufferPointer<UInt64>,
        rawValues: UnsafeBufferPointer<UInt8>, withExpand: Bool, properties: [ColumnString]
    ) -> (metadataEnd: Int, dataEnd: Int) {
        guard let base = buffer.baseAddress else { return (0, 0) }
        var metadata = Cursor(base: base, position: 1)
        var data = Cursor(base: base, position: dataStart)
        var columnCount: UInt8 = 0
        var start = data.position
        @inline(__always)
        func column(_ column: Column) -> UnsafeBufferPointer<UInt64> {
            UnsafeBufferPointer(rebasing: cells[(column.rawValue * capacity)..<(column.rawValue * capacity + rows)])
        }
        writeRuns(column(.objectActor), null: nullUnsigned, as: .unsigned, properties: properties, to: &data)
        record(ColumnID.objectActor, data, &metadata, &start, &columnCount)
        writeRuns(column(.objectCounter), null: nullUnsigned, as: .unsigned, properties: properties, to: &data)
        record(ColumnID.objectCounter, data, &metadata, &start, &columnCount)
        writeRuns(column(.keyActor), null: nullUnsigned, as: .unsigned, properties: properties, to: &data)
        record(ColumnID.keyActor, data, &metadata, &start, &columnCount)
        writeRuns(column(.keyCounterDelta), null: nullSigned, as: .signed, properties: properties, to: &data)
        record(ColumnID.keyCounter, data, &metadata, &start, &columnCount)
        writeRuns(column(.keyProperty), null: nullUnsigned, as: .property, properties: properties, to: &data)
        record(ColumnID.keyString, data, &metadata, &start, &columnCount)
        writeBooleans(column(.insert), to: &data)
        record(ColumnID.insert, data, &metadata, &start, &columnCount)
        writeRuns(column(.action), null: nullUnsigned, as: .unsigned, properties: properties, to: &data)
        record(ColumnID.action, data, &metadata, &start, &columnCount)
        writeRuns(column(.valueMetadata), null: nullUnsigned, as: .unsigned, properties: properties, to: &data)
        record(ColumnID.valueMetadata, data, &metadata, &start, &columnCount)
        data.bytes(rawValues)
        record(ColumnID.value, data, &metadata, &start, &columnCount)
        writeRuns(column(.referenceCount), null: nullUnsigned, as: .unsigned, properties: properties, to: &data)
        record(ColumnID.predecessorGroup, data, &metadata, &start, &columnCount)
        writeRuns(referenceActors, null: nullUnsigned, as: .unsigned, properties: properties, to: &data)
        record(ColumnID.predecessorActor, data, &metadata, &start, &columnCount)
        writeRuns(referenceDeltas, null: nullSigned, as: .signed, properties: properties, to: &data)
        record(ColumnID.predecessorCounter, data, &metadata, &start, &columnCount)
        if withExpand {
            writeBooleans(column(.expand), to: &data)
            record(ColumnID.expand, data, &metadata, &start, &columnCount)
        }
        base[0] = columnCount
        return (metadata.position, data.position)
    }

    /// Adds a column's entry to the metadata when it has data (from `start` to the cursor).
    @inline(__always)
    private static func record(
        _ specification: ColumnSpecification, _ data: Cursor, _ metadata: inout Cursor, _ start: inout Int, _ count: inout UInt8
    ) {
        guard data.position > start else { return }
        metadata.unsigned(UInt64(specification.rawValue))
        metadata.unsigned(UInt64(data.position - start))
        count += 1
        start = data.position
    }

    /// Writes one value of a column.
    @inline(__always)
    private static func write(_ value: UInt64, as kind: ValueKind, properties: [ColumnString], to output: inout Cursor) {
        switch kind {
        case .unsigned: output.unsigned(value)
        case .signed: output.signed(Int64(bitPattern: value))
        case .property: properties[Int(value)].utf8.withUnsafeBufferPointer { output.prefixed($0) }
        }
    }

    /// Run-length encodes a column as ``RLEEncoder`` does: runs of two or more equal values as
    /// `count value`, other values in literal runs `-count v1 v2 …`, nulls as `0 count`; a column
    /// of nulls only as nothing.
    private static func writeRuns(
        _ values: UnsafeBufferPointer<UInt64>, null: UInt64, as kind: ValueKind, properties: [ColumnString], to output: inout Cursor
    ) {
        let count = values.count
        var index = 0
        while index < count && values[index] == null { index += 1 }
        if index == count { return }
        index = 0
        while index < count {
            let current = values[index]
            var end = index + 1
            if current == null {
                while end < count && values[end] == null { end += 1 }
                output.signed(0)
                output.unsigned(UInt64(end - index))
            } else if end < count && values[end] == current {
                while end < count && values[end] == current { end += 1 }
                output.signed(Int64(end - index))
                write(current, as: kind, properties: properties, to: &output)
            } else {
                // A literal run ends before a null and before a value that starts a run.
                while end < count {
                    let next = values[end]
                    if next == null || (end + 1 < count && values[end + 1] == next) { break }
                    end += 1
                }
                output.signed(-Int64(end - index))
                for position in index..<end { write(values[position], as: kind, properties: properties, to: &output) }
            }
            index = end
        }
    }

    /// Encodes a boolean column (values 0 and 1) as ``BooleanEncoder`` does: alternating run
    /// lengths, from `false`.
    private static func writeBooleans(_ values: UnsafeBufferPointer<UInt64>, to output: inout Cursor) {
        var last: UInt64 = 0, run = 0
        for value in values {
            if value == last {
                run += 1
            } else {
                output.unsigned(UInt64(run))
                last = value
                run = 1
            }
        }
        if run > 0 { output.unsigned(UInt64(run)) }
    }

    /// Writes bytes through a pointer to memory the caller sized for them.
    struct Cursor {
        let base: UnsafeMutablePointer<UInt8>
        var position = 0

        @inline(__always)
        mutating func byte(_ value: UInt8) {
            base[position] = value
            position += 1
        }

        @inline(__always)
        mutating func unsigned(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                byte(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            byte(UInt8(truncatingIfNeeded: value))
        }

        @inline(__always)
        mutating func signed(_ value: Int64) {
            var value = value
            while true {
                let low = UInt8(truncatingIfNeeded: value) & 0x7f
                value >>= 6
                if value == 0 || value == -1 {
                    byte(low)
                    return
                }
                value >>= 1
                byte(low | 0x80)
            }
        }

        @inline(__always)
        mutating func bytes(_ source: UnsafeBufferPointer<UInt8>) {
            guard let address = source.baseAddress, !source.isEmpty else { return }
            (base + position).update(from: address, count: source.count)
            position += source.count
        }

        @inline(__always)
        mutating func prefixed(_ source: UnsafeBufferPointer<UInt8>) {
            unsigned(UInt64(source.count))
            bytes(source)
        }
    }
}
