/// The column metadata of a chunk (`count (spec length)*`) and where each column's data lies.
struct ColumnLayout {
    struct Column {
        var specification: ColumnSpecification
        var range: Range<Int>
    }

    var columns: [Column]
    /// Total data bytes the metadata declares.
    var totalLength: Int

    /// Reads the metadata. Ranges are relative to the start of the column data, which follows
    /// later in the chunk.
    static func readMetadata(from reader: inout ByteReader) throws(AutomergeError) -> ColumnLayout {
        let start = reader.position
        let count = try reader.readLength()
        // Each column takes at least two bytes of metadata: a count larger than what is left is a lie.
        guard count <= reader.remainingCount / 2 else {
            throw .truncated(at: reader.end, needed: count * 2 - reader.remainingCount)
        }
        var columns: [Column] = []
        columns.reserveCapacity(count)
        var offset = 0
        for _ in 0..<count {
            let specOffset = reader.position
            let rawSpec = try reader.readUnsignedLEB128()
            guard rawSpec <= UInt64(UInt32.max) else {
                throw AutomergeError(.invalidLEB128, "column specification does not fit in 32 bits", at: specOffset)
            }
            let length = try reader.readUnsignedLEB128()
            guard length <= UInt64(Int32.max) else {
                throw .truncated(at: reader.end, needed: Int(clamping: length))
            }
            let specification = ColumnSpecification(rawValue: UInt32(rawSpec))
            if let previous = columns.last, specification.normalized < previous.specification.normalized {
                throw AutomergeError(.invalidColumns, "columns were not in normalized order", at: specOffset)
            }
            columns.append(Column(specification: specification, range: offset..<(offset + Int(length))))
            offset += Int(length)
        }
        _ = start
        return ColumnLayout(columns: columns, totalLength: offset)
    }

    /// Inflates the deflated columns. `bytes[dataStart...]` is where the column data begins.
    /// Returns the uncompressed data and a layout whose ranges index into it.
    func inflated(from bytes: [UInt8], dataStart: Int) throws(AutomergeError) -> (data: [UInt8], layout: ColumnLayout) {
        var data: [UInt8] = []
        data.reserveCapacity(totalLength)
        var result: [Column] = []
        result.reserveCapacity(columns.count)
        var inflater = RawInflate()
        for column in columns {
            let source = (dataStart + column.range.lowerBound)..<(dataStart + column.range.upperBound)
            let begin = data.count
            if column.specification.isDeflated {
                try inflater.inflate(bytes[source], appendingTo: &data, at: source.lowerBound)
            } else {
                data.append(contentsOf: bytes[source])
            }
            result.append(Column(specification: column.specification.normalized, range: begin..<data.count))
        }
        return (data, ColumnLayout(columns: result, totalLength: data.count))
    }

    /// The data range of the column with this (normalized) specification, or an empty range.
    ///
    /// A specification given more than once means its last column, as in the reference; a raw
    /// value column is the one right after the last metadata column of its id (none: empty).
    func range(of specification: ColumnSpecification) -> Range<Int> {
        if specification.type == .value {
            let metadata = ColumnSpecification(id: specification.id, type: .valueMetadata)
            guard let last = columns.lastIndex(where: { $0.specification.normalized == metadata }) else { return 0..<0 }
            let next = last + 1
            guard next < columns.count, columns[next].specification.normalized == specification else { return 0..<0 }
            return columns[next].range
        }
        for column in columns.reversed() where column.specification.normalized == specification {
            return column.range
        }
        return 0..<0
    }

    /// Checks how the columns group, as the reference does before it reads any: the columns after
    /// a group column that share its id belong to the group, and a raw value column must follow
    /// the metadata column of its id. `groups` lists the groups the chunk's reader knows, with the
    /// columns each must hold when it holds any (``ColumnID``).
    ///
    /// The reference reads actor and unsigned integer columns alike, and takes either where a known
    /// group has one: such a member is renamed to the specification the group expects.
    ///
    /// - Throws: ``AutomergeError/Kind/invalidColumns`` for a group inside a group of the same id
    ///   ("nested group"), a raw value column without its metadata column, or a known group holding
    ///   other columns than its own ("mismatching column types").
    mutating func validateGroups(_ groups: [(group: ColumnSpecification, members: [ColumnSpecification])]) throws(AutomergeError) {
        var group: UInt32?
        var members: [ColumnSpecification] = []
        var memberIndices: [Int] = []
        var metadata: UInt32?
        func sameKind(_ left: ColumnSpecification, _ right: ColumnSpecification) -> Bool {
            func kind(_ type: ColumnSpecification.ColumnType?) -> ColumnSpecification.ColumnType? { type == .actor ? .unsignedInteger : type }
            return left.id == right.id && kind(left.type) == kind(right.type)
        }
        func finishGroup() throws(AutomergeError) {
            guard let id = group else { return }
            group = nil
            guard let known = groups.first(where: { $0.group.id == id }), !members.isEmpty else { return }
            guard members.count == known.members.count, zip(members, known.members).allSatisfy(sameKind) else {
                throw AutomergeError(
                    .invalidColumns, "column group \(id) holds columns \(members.map(\.rawValue)) instead of \(known.members.map(\.rawValue)) (mismatching column types)")
            }
            for (index, expected) in zip(memberIndices, known.members) {
                columns[index].specification = ColumnSpecification(
                    rawValue: expected.rawValue | (columns[index].specification.isDeflated ? 8 : 0))
            }
        }
        for (index, column) in columns.enumerated() {
            let specification = column.specification.normalized
            let id = specification.id
            let type = specification.type
            if let current = group, current != id { try finishGroup() }
            if type == .value {
                guard metadata == id else {
                    throw AutomergeError(.invalidColumns, "raw value column \(specification.rawValue) without its metadata column")
                }
                metadata = nil
                if group != nil { members.append(specification); memberIndices.append(index) }
                continue
            }
            metadata = type == .valueMetadata ? id : nil
            if group != nil {
                guard type != .group else { throw AutomergeError(.invalidColumns, "column group \(id) inside a group of the same id (nested group)") }
                members.append(specification)
                memberIndices.append(index)
            } else if type == .group {
                group = id
                members = []
                memberIndices = []
            }
        }
        try finishGroup()
    }

    /// Writes metadata for columns, leaving out empty ones, as the reference does.
    static func writeMetadata(_ columns: [(ColumnSpecification, Int)], to output: inout [UInt8]) {
        let present = columns.filter { $0.1 > 0 }
        output.appendLength(present.count)
        for (specification, length) in present {
            output.appendUnsignedLEB128(UInt64(specification.rawValue))
            output.appendLength(length)
        }
    }
}
