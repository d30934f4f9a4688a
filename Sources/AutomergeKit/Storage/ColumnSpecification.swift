/// A column's 32-bit specification: `id << 4 | deflate << 3 | type`.
struct ColumnSpecification: Hashable, Comparable {
    enum ColumnType: UInt32 {
        case group = 0, actor = 1, unsignedInteger = 2, deltaInteger = 3, boolean = 4, string = 5
        case valueMetadata = 6, value = 7
    }

    let rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }
    init(id: UInt32, type: ColumnType, deflated: Bool = false) {
        rawValue = id << 4 | (deflated ? 8 : 0) | type.rawValue
    }

    var isDeflated: Bool { rawValue & 8 != 0 }
    /// The column's id: which field of a row it holds.
    var id: UInt32 { rawValue >> 4 }
    /// The column's type, `nil` for none the format defines (it has three bits: all are defined).
    var type: ColumnType? { ColumnType(rawValue: rawValue & 7) }
    /// The specification without the deflate bit, which is how columns are ordered and matched.
    var normalized: ColumnSpecification { ColumnSpecification(rawValue: rawValue & ~8) }
    var deflated: ColumnSpecification { ColumnSpecification(rawValue: rawValue | 8) }

    static func < (left: ColumnSpecification, right: ColumnSpecification) -> Bool { left.rawValue < right.rawValue }
}

/// The column specifications of change and document chunks.
enum ColumnID {
    // Operation columns (change chunks and document chunks).
    static let objectActor = ColumnSpecification(id: 0, type: .actor)
    static let objectCounter = ColumnSpecification(id: 0, type: .unsignedInteger)
    static let keyActor = ColumnSpecification(id: 1, type: .actor)
    static let keyCounter = ColumnSpecification(id: 1, type: .deltaInteger)
    static let keyString = ColumnSpecification(id: 1, type: .string)
    static let idActor = ColumnSpecification(id: 2, type: .actor)
    static let idCounter = ColumnSpecification(id: 2, type: .deltaInteger)
    static let insert = ColumnSpecification(id: 3, type: .boolean)
    static let action = ColumnSpecification(id: 4, type: .unsignedInteger)
    static let valueMetadata = ColumnSpecification(id: 5, type: .valueMetadata)
    static let value = ColumnSpecification(id: 5, type: .value)
    static let predecessorGroup = ColumnSpecification(id: 7, type: .group)
    static let predecessorActor = ColumnSpecification(id: 7, type: .actor)
    static let predecessorCounter = ColumnSpecification(id: 7, type: .deltaInteger)
    static let successorGroup = ColumnSpecification(id: 8, type: .group)
    static let successorActor = ColumnSpecification(id: 8, type: .actor)
    static let successorCounter = ColumnSpecification(id: 8, type: .deltaInteger)
    static let expand = ColumnSpecification(id: 9, type: .boolean)
    static let markName = ColumnSpecification(id: 10, type: .string)

    // Change metadata columns (document chunks).
    static let changeActor = ColumnSpecification(id: 0, type: .actor)
    static let changeSequence = ColumnSpecification(id: 0, type: .deltaInteger)
    static let changeMaxOperation = ColumnSpecification(id: 1, type: .deltaInteger)
    static let changeTime = ColumnSpecification(id: 2, type: .deltaInteger)
    static let changeMessage = ColumnSpecification(id: 3, type: .string)
    static let changeDependencyGroup = ColumnSpecification(id: 4, type: .group)
    static let changeDependencyIndex = ColumnSpecification(id: 4, type: .deltaInteger)
    static let changeExtraMetadata = ColumnSpecification(id: 5, type: .valueMetadata)
    static let changeExtra = ColumnSpecification(id: 5, type: .value)
}
