/// The compressed form of each column the last save wrote, so that a save whose column bytes did
/// not change reuses it instead of deflating the same bytes again (deflate is most of a save).
///
/// Columns are matched by their group (change metadata or operations), specification and exact
/// bytes: the output is what compressing would give, byte for byte.
struct CompressedColumnCache: Sendable {
    enum Group: UInt64 { case changes = 0, operations = 1 }

    private struct Entry {
        var raw: [UInt8]
        var compressed: [UInt8]
    }

    private var entries: [UInt64: Entry] = [:]

    init() {}

    /// `raw` deflated, from the cache when the column had exactly these bytes at the last save.
    mutating func compressed(_ raw: [UInt8], group: Group, specification: ColumnSpecification) -> [UInt8] {
        let key = group.rawValue << 32 | UInt64(specification.rawValue)
        if let entry = entries[key], Self.bytesEqual(entry.raw, raw) { return entry.compressed }
        let compressed = RawDeflate.compress(raw)
        entries[key] = Entry(raw: raw, compressed: compressed)
        return compressed
    }

    /// Whether two byte arrays hold the same bytes, eight at a time.
    static func bytesEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        return left.withUnsafeBytes { leftBytes in
            right.withUnsafeBytes { rightBytes in
                if leftBytes.baseAddress == rightBytes.baseAddress { return true }
                let count = leftBytes.count
                var index = 0
                while index + 8 <= count {
                    if leftBytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        != rightBytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
                    index += 8
                }
                while index < count {
                    if leftBytes[index] != rightBytes[index] { return false }
                    index += 1
                }
                return true
            }
        }
    }
}

/// Each change's dependencies as positions in the history, for the changes an earlier save already
/// looked up: a history only grows and a change's dependencies keep their positions, so a save
/// hashes only the dependencies of changes added since.
struct DependencyPositionCache: Sendable {
    private var starts: [Int] = [0]
    private var positions: [Int] = []
    /// The hash of the last change looked up, to notice a different history.
    private var lastHash: ChangeHash?

    init() {}

    /// Looks up the changes of `history` after those already known.
    mutating func extend(_ history: [StoredChange], index: [ChangeHash: Int]) {
        let known = starts.count - 1
        if known > history.count || (known > 0 && history[known - 1].hash != lastHash) { self = DependencyPositionCache() }
        for change in history[(starts.count - 1)...] {
            for dependency in change.dependencies { positions.append(index[dependency] ?? 0) }
            starts.append(positions.count)
        }
        lastHash = history.last?.hash
    }

    /// The dependencies of the change at `position` in the history, as history positions.
    func dependencies(ofChange position: Int) -> [Int] {
        Array(positions[starts[position]..<starts[position + 1]])
    }
}
