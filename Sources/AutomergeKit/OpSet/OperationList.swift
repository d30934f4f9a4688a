/// The operation indices of one map key or one sequence element, in Lamport order.
///
/// Almost every key and element holds one operation (a month document's record fields, each
/// character of a text), so the first index is kept inline and only the others in an array: a
/// list of one costs no allocation to make, to copy or to free, where an `[Int]` costs one.
struct OperationList: RandomAccessCollection, ExpressibleByArrayLiteral, Equatable, Sendable {
    /// The first index, or -1 for an empty list.
    private var head: Int
    /// The indices after the first; empty unless the list holds two or more.
    private var tail: [Int]

    init() {
        head = -1
        tail = []
    }

    /// A list of one index.
    init(_ index: Int) {
        head = index
        tail = []
    }

    init<Source: Sequence<Int>>(_ indices: Source) {
        self.init()
        for index in indices { append(index) }
    }

    init(arrayLiteral indices: Int...) {
        self.init(indices)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { head < 0 ? 0 : 1 + tail.count }
    var isEmpty: Bool { head < 0 }

    subscript(position: Int) -> Int {
        get {
            precondition(position >= 0 && position < endIndex, "operation list index out of range")
            return position == 0 ? head : tail[position - 1]
        }
    }

    /// Iterates without a range check per index: saving and reading walk every list.
    struct Iterator: IteratorProtocol {
        private let head: Int
        private let tail: [Int]
        /// -1 before the head, then the position in ``tail``.
        private var position = -1

        fileprivate init(head: Int, tail: [Int]) {
            self.head = head
            self.tail = tail
        }

        mutating func next() -> Int? {
            if position < 0 {
                position = 0
                return head < 0 ? nil : head
            }
            guard position < tail.count else { return nil }
            defer { position += 1 }
            return tail[position]
        }
    }

    func makeIterator() -> Iterator { Iterator(head: head, tail: tail) }

    /// The last index whose operation is visible in `operations` (``OperationSet/isVisible(at:)``),
    /// looked at from the end, without copying the list.
    func lastVisible(in operations: borrowing OperationSet) -> Int? {
        if head < 0 { return nil }
        var position = tail.count - 1
        while position >= 0 {
            if operations.isVisible(at: tail[position]) { return tail[position] }
            position -= 1
        }
        return operations.isVisible(at: head) ? head : nil
    }

    mutating func append(_ index: Int) {
        if head < 0 { head = index } else { tail.append(index) }
    }

    mutating func append(contentsOf indices: Range<Int>) {
        guard !indices.isEmpty else { return }
        var rest = indices
        if head < 0 {
            head = indices.lowerBound
            rest = (indices.lowerBound + 1)..<indices.upperBound
        }
        if !rest.isEmpty { tail.append(contentsOf: rest) }
    }

    /// Inserts `index` at `position` (`0...count`).
    mutating func insert(_ index: Int, at position: Int) {
        precondition(position >= 0 && position <= endIndex, "operation list position out of range")
        if head < 0 {
            head = index
        } else if position == 0 {
            tail.insert(head, at: 0)
            head = index
        } else {
            tail.insert(index, at: position - 1)
        }
    }
}
