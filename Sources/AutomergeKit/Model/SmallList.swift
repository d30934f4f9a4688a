/// A list of a few elements, the first held inline and only the rest in an array.
///
/// Most changes depend on one other change, and a month document holds thousands of changes:
/// an array for each change's dependencies (one allocation to make, one to free, both at every
/// load) would cost more than the rest of a change's bookkeeping. One element inline, not more: a
/// history of thousands of changes is one array, and every byte a change takes in it is a byte
/// the load touches for the first time.
struct SmallList<Element>: RandomAccessCollection, ExpressibleByArrayLiteral {
    private var first: Element?
    private var rest: [Element] = []

    init() {}

    init<Elements: Sequence>(_ elements: Elements) where Elements.Element == Element {
        for element in elements { append(element) }
    }

    init(arrayLiteral elements: Element...) {
        self.init(elements)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { first == nil ? 0 : 1 + rest.count }

    subscript(position: Int) -> Element {
        if position == 0 {
            guard let first else { preconditionFailure("index 0 of an empty list") }
            return first
        }
        return rest[position - 1]
    }

    mutating func append(_ element: Element) {
        if first == nil {
            first = element
        } else {
            rest.append(element)
        }
    }

    mutating func reserveCapacity(_ capacity: Int) {
        if capacity > 1 { rest.reserveCapacity(capacity - 1) }
    }
}

extension SmallList: Equatable where Element: Equatable {
    static func == (left: SmallList, right: SmallList) -> Bool { left.elementsEqual(right) }
}

extension SmallList: Sendable where Element: Sendable {}
