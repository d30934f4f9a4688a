/// An operation id inside a chunk: a counter and an index into that chunk's actor table.
struct ChunkOpID: Hashable {
    var counter: UInt64
    var actor: Int
}

/// Where an operation applies inside its object, as a chunk stores it.
enum ChunkKey: Equatable {
    case property(ColumnString)
    /// The start of a sequence (element id `0`).
    case head
    case element(ChunkOpID)
}

/// Action codes of automerge 0.6.
enum Action: UInt64 {
    case makeMap = 0, set = 1, makeList = 2, delete = 3, makeText = 4, increment = 5, makeTable = 6, mark = 7

    var createdObjectType: ObjectType? {
        switch self {
        case .makeMap: .map
        case .makeList: .list
        case .makeText: .text
        case .makeTable: .table
        default: nil
        }
    }

    init(making type: ObjectType) {
        switch type {
        case .map: self = .makeMap
        case .list: self = .makeList
        case .text: self = .makeText
        case .table: self = .makeTable
        }
    }
}

/// One operation as a chunk stores it, with actor ids as indices into the chunk's actor table.
/// `references` are the predecessors in a change chunk and the successors in a document chunk.
struct ChunkOperation {
    var id: ChunkOpID
    var object: ChunkOpID?
    var key: ChunkKey
    var insert: Bool
    var action: Action
    var value: ScalarValue
    var references: [ChunkOpID]
    var expand: Bool
    var markName: ColumnString?
}
