/// An operation id inside a document: a Lamport counter and an index into the document's
/// actor table. Counter 0 is the root object and the head of every sequence.
struct OpID: Hashable, Sendable {
    var counter: UInt64
    var actor: Int32

    static let root = OpID(counter: 0, actor: 0)
    var isRoot: Bool { counter == 0 }

    /// One word instead of two: ids are hashed for every operation loaded.
    func hash(into hasher: inout Hasher) {
        hasher.combine(counter ^ (UInt64(UInt32(bitPattern: actor)) << 32))
    }

    /// What Swift's dictionaries and sets hash an id with: the same word through SplitMix64's
    /// finalizer after the table's seed, without setting up and finishing a SipHash `Hasher` for
    /// each look-up (objects are looked up by id for every object a document loads).
    func _rawHashValue(seed: Int) -> Int {
        var mixed = (counter ^ (UInt64(UInt32(bitPattern: actor)) << 32)) ^ UInt64(bitPattern: Int64(seed))
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 31))
    }
}

/// Where an operation applies inside its object.
enum OpKey: Hashable, Sendable {
    /// A map key, as an index into the document's property table.
    case property(Int)
    /// A sequence element, by the id of the operation that inserted it (`.root` is the head).
    case element(OpID)
}

/// One operation held by a document. Deletions are not held: they only appear as successors.
struct Operation: Sendable {
    var id: OpID
    var object: OpID
    /// For an insertion, the element it was inserted after; otherwise the key it writes.
    var key: OpKey
    var insert: Bool
    var action: Action
    var value: ScalarValue
    /// Operations that overwrote, deleted or incremented this one, in Lamport order.
    var successors: [OpID]
    var expand: Bool
    var markName: ColumnString?
    /// For a counter: the sum of the increments among its successors.
    var incrementTotal: Int64 = 0

    var isIncrement: Bool { action == .increment }
    var isCounter: Bool { if action == .set, case .counter = value { return true }; return false }
}
