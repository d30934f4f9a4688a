/// Writes the operation columns of one change chunk, byte for byte as ``OperationColumnEncoder``
/// does for the change layout, for the history rebuild of a loaded document.
///
/// A month document holds thousands of changes of a few operations each, so what a change costs
/// apart from its operations decides the rebuild's time. Here each operation is one row of plain
/// numbers in one reused array (a map key is its index in the property table: indices are unique
/// per byte string, so runs of indices are runs of names), and each column is encoded in one pass
/// over the rows straight into the output, after its metadata: no per-column buffers to reset,
/// flush and copy, and no strings or values retained per operation.
///
/// Mark names are not written: a change with one goes through ``OperationColumnEncoder``.
/// Counters are below 2^32 (the loader refuses others), so deltas never reach ``nullSigned``.
struct ChangeColumnWriter {
    /// One operation's fields, as column values. Nullable fields hold ``nullUnsigned`` or
    /// ``nullSigned`` for null; signed (delta) fields hold the bits of an `Int64`.
    struct Row {
        var objectActor: UInt64
        var objectCounter: UInt64
        var keyActor: UInt64
        var keyCounterDelta: UInt64
        var keyProperty: UInt64
        var action: UInt64
        var valueMetadata: UInt64
        var referenceCount: UInt64
        var insert: Bool
        var expand: Bool
    }

    static let nullUnsigned = UInt64.max
    static let nullSigned = UInt64(bitPattern: Int64.min)

    private var rows: [Row] = []
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

    /// Empties the writer for the next change, keeping its buffers' capacity.
    mutating func reset() {
        if !rows.isEmpty { rows.removeAll(keepingCapacity: true) }
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

    /// Appends one operation; its references follow with ``appendReference(actor:counter:)``.
    /// `object` is nil for the root; `keyProperty` is the property index of a map key, and
    /// `keyElement` the element of a sequence key (nil with `keyProperty` nil: the head);
    /// `keyLength` is the byte count of a map key's name.
    @inline(__always)
    mutating func appendOperation(
        object: ChunkOpID?, keyProperty: Int?, keyLength: Int, keyElement: ChunkOpID?, insert: Bool, action: Action,
        value: ScalarValue, referenceCount: Int, expand: Bool
    ) {
        var row = Row(
            objectActor: Self.nullUnsigned, objectCounter: Self.nullUnsigned, keyActor: Self.nullUnsigned,
            keyCounterDelta: Self.nullSigned, keyProperty: Self.nullUnsigned, action: action.rawValue,
            valueMetadata: ValueEncoder.appendRaw(value, to: &rawValues), referenceCount: UInt64(referenceCount),
            insert: insert, expand: expand)
        if let object {
            row.objectActor = UInt64(object.actor)
            row.objectCounter = object.counter
        }
        if let keyProperty {
            row.keyProperty = UInt64(keyProperty)
            keyStringBytes += 10 + keyLength
        } else if let keyElement {
            row.keyActor = UInt64(keyElement.actor)
            row.keyCounterDelta = Self.delta(Int64(keyElement.counter), from: &previousKeyCounter)
        } else {
            row.keyCounterDelta = Self.delta(0, from: &previousKeyCounter)
        }
        if expand { sawExpand = true }
        rows.append(row)
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

    /// Writes the column metadata, then the column data, to `output`, leaving out empty columns;
    /// `properties` names the property indices of map keys.
    mutating func writeColumns(properties: [ColumnString], to output: inout [UInt8]) {
        let rows = self.rows, actors = referenceActors, deltas = referenceCounterDeltas, rawValues = self.rawValues
        let sawExpand = self.sawExpand
        // Everything is written to `scratch` through a pointer: the metadata (a count of at most
        // 14 columns, then at most 15 bytes a column) at its start, the columns from
        // `metadataRoom` on, each column's entry as soon as its length is known. The columns take
        // at most 20 bytes a value (a run header and the value).
        let metadataRoom = 256
        let bound = metadataRoom + 20 * (9 * rows.count + 2 * actors.count) + 4 * 10 + keyStringBytes + rawValues.count + 64
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: max(bound, 2 * scratch.count)) }
        let (metadataEnd, dataEnd) = scratch.withUnsafeMutableBufferPointer { buffer -> (Int, Int) in
            guard let base = buffer.baseAddress else { return (0, 0) }
            var metadata = Cursor(base: base, position: 1)
            var data = Cursor(base: base, position: metadataRoom)
            var columnCount: UInt8 = 0
            var start = data.position
            @inline(__always)
            func record(_ specification: ColumnSpecification, _ data: Cursor, _ metadata: inout Cursor, _ start: inout Int, _ count: inout UInt8) {
                guard data.position > start else { return }
                metadata.unsigned(UInt64(specification.rawValue))
                metadata.unsigned(UInt64(data.position - start))
                count += 1
                start = data.position
            }
            let null = Self.nullUnsigned, nullSigned = Self.nullSigned
            Self.writeRuns(count: rows.count, null: null, to: &data, { rows[$0].objectActor }) { $1.unsigned($0) }
            record(ColumnID.objectActor, data, &metadata, &start, &columnCount)
            Self.writeRuns(count: rows.count, null: null, to: &data, { rows[$0].objectCounter }) { $1.unsigned($0) }
            record(ColumnID.objectCounter, data, &metadata, &start, &columnCount)
            Self.writeRuns(count: rows.count, null: null, to: &data, { rows[$0].keyActor }) { $1.unsigned($0) }
            record(ColumnID.keyActor, data, &metadata, &start, &columnCount)
            Self.writeRuns(count: rows.count, null: nullSigned, to: &data, { rows[$0].keyCounterDelta }) { $1.signed(Int64(bitPattern: $0)) }
            record(ColumnID.keyCounter, data, &metadata, &start, &columnCount)
            Self.writeRuns(count: rows.count, null: null, to: &data, { rows[$0].keyProperty }) { value, cursor in
                properties[Int(value)].utf8.withUnsafeBufferPointer { cursor.prefixed($0) }
            }
            record(ColumnID.keyString, data, &metadata, &start, &columnCount)
            Self.writeBooleans(count: rows.count, to: &data) { rows[$0].insert }
            record(ColumnID.insert, data, &metadata, &start, &columnCount)
            Self.writeRuns(count: rows.count, null: null, to: &data, { rows[$0].action }) { $1.unsigned($0) }
            record(ColumnID.action, data, &metadata, &start, &columnCount)
            Self.writeRuns(count: rows.count, null: null, to: &data, { rows[$0].valueMetadata }) { $1.unsigned($0) }
            record(ColumnID.valueMetadata, data, &metadata, &start, &columnCount)
            rawValues.withUnsafeBufferPointer { data.bytes($0) }
            record(ColumnID.value, data, &metadata, &start, &columnCount)
            Self.writeRuns(count: rows.count, null: null, to: &data, { rows[$0].referenceCount }) { $1.unsigned($0) }
            record(ColumnID.predecessorGroup, data, &metadata, &start, &columnCount)
            Self.writeRuns(count: actors.count, null: null, to: &data, { actors[$0] }) { $1.unsigned($0) }
            record(ColumnID.predecessorActor, data, &metadata, &start, &columnCount)
            Self.writeRuns(count: deltas.count, null: nullSigned, to: &data, { deltas[$0] }) { $1.signed(Int64(bitPattern: $0)) }
            record(ColumnID.predecessorCounter, data, &metadata, &start, &columnCount)
            if sawExpand {
                Self.writeBooleans(count: rows.count, to: &data) { rows[$0].expand }
                record(ColumnID.expand, data, &metadata, &start, &columnCount)
            }
            base[0] = columnCount
            return (metadata.position, data.position)
        }
        scratch.withUnsafeBufferPointer { buffer in
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<metadataEnd]))
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[metadataRoom..<dataEnd]))
        }
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

    /// Run-length encodes a column of `count` values as ``RLEEncoder`` does: runs of two or more
    /// equal values as `count value`, other values in literal runs `-count v1 v2 …`, nulls as
    /// `0 count`; a column of nulls only as nothing.
    @inline(__always)
    private static func writeRuns(
        count: Int, null: UInt64, to output: inout Cursor, _ value: (Int) -> UInt64, _ write: (UInt64, inout Cursor) -> Void
    ) {
        var index = 0
        while index < count && value(index) == null { index += 1 }
        if index == count { return }
        index = 0
        while index < count {
            let current = value(index)
            var end = index + 1
            if current == null {
                while end < count && value(end) == null { end += 1 }
                output.signed(0)
                output.unsigned(UInt64(end - index))
            } else if end < count && value(end) == current {
                while end < count && value(end) == current { end += 1 }
                output.signed(Int64(end - index))
                write(current, &output)
            } else {
                // A literal run ends before a null and before a value that starts a run.
                while end < count {
                    let next = value(end)
                    if next == null || (end + 1 < count && value(end + 1) == next) { break }
                    end += 1
                }
                output.signed(-Int64(end - index))
                for position in index..<end { write(value(position), &output) }
            }
            index = end
        }
    }

    /// Encodes a boolean column as ``BooleanEncoder`` does: alternating run lengths, from `false`.
    @inline(__always)
    private static func writeBooleans(count: Int, to output: inout Cursor, _ value: (Int) -> Bool) {
        var last = false, run = 0
        for index in 0..<count {
            if value(index) == last {
                run += 1
            } else {
                output.unsigned(UInt64(run))
                last = !last
                run = 1
            }
        }
        if run > 0 { output.unsigned(UInt64(run)) }
    }
}
