/// The operations of one object: per key for maps and tables, per element in order for lists
/// and text.
struct ObjectState: Sendable {
    /// One element of a sequence: the operation that inserted it, then every later operation on
    /// it (sets, increments), in Lamport order.
    struct Element: Sendable {
        var operations: [Int]
    }

    var type: ObjectType?
    /// Map and table keys: operation indices in Lamport order.
    var keys: [Int: [Int]] = [:]
    /// Map and table keys: the operations of ``keys`` that nothing has overwritten or deleted yet
    /// (``OperationSet/isVisible(at:)``), in the same order. Kept up to date as operations apply, so
    /// reading a key costs the same after 10,000 overwrites as after one (issue 19). While no operation
    /// of a key has been overwritten it shares its array with ``keys``.
    var visibleKeys: [Int: [Int]] = [:]
    /// Sequence elements, indices into ``elementStore``, in document order.
    var order: [Int] = []
    var elementStore: [Element] = []
    /// Element id to its index in ``elementStore``.
    var elementByID: [OpID: Int] = [:]
    /// The element last inserted and where it went in ``order``: typing inserts each character after
    /// the previous one, so its place is found without searching ``order`` (checked before use: later
    /// insertions before it move it).
    var lastInsertion: (store: Int, position: Int)?

    init(type: ObjectType?) { self.type = type }
}
