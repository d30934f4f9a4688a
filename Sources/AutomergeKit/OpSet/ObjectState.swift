/// The operations of one object: per key for maps and tables, per element in order for lists
/// and text.
struct ObjectState: Sendable {
    /// One element of a sequence: the operation that inserted it, then every later operation on
    /// it (sets, increments), in Lamport order.
    struct Element: Sendable {
        var operations: OperationList
        /// The last of ``operations`` that is visible (``OperationList/lastVisible(in:)``), or -1 when
        /// none is (the element was deleted). Kept as operations apply, so that a walk through a text
        /// passes over a deleted element without looking at its operations: a comment rewritten a
        /// thousand times holds a thousand deleted copies of itself, and every read, diff and splice of
        /// it walks them all.
        var shown: Int
    }

    var type: ObjectType?
    /// Map and table keys: operation indices in Lamport order.
    var keys: [Int: OperationList] = [:]
    /// Map and table keys some of whose operations are no longer visible (overwritten, deleted, or
    /// never visible: increments and marks): the operations of ``keys`` that still are
    /// (``OperationSet/isVisible(at:)``), in the same order. A key not listed here shows all its
    /// operations, which is most keys of most documents, so they cost no memory. Kept up to date as
    /// operations apply, so reading a key costs the same after 10,000 overwrites as after one.
    var visibleKeys: [Int: OperationList] = [:]

    /// The visible operations of a map key, in Lamport order.
    func visibleOperations(at property: Int) -> OperationList {
        visibleKeys[property] ?? keys[property] ?? []
    }
    /// Sequence elements, indices into ``elementStore``, in document order.
    var order: [Int] = []
    var elementStore: [Element] = []
    /// Element id to its index in ``elementStore``.
    var elementByID = OperationIndex()
    /// The element last inserted and where it went in ``order``: typing inserts each character after
    /// the previous one, so its place is found without searching ``order`` (checked before use: later
    /// insertions before it move it).
    var lastInsertion: (store: Int, position: Int)?

    init(type: ObjectType?) { self.type = type }
}
