/// A list of a few elements, the first two held inline and only the rest in an array.
///
/// Most changes depend on one other change, and a month document holds thousands of changes:
/// an array for each change's dependencies (one allocation to make, one to free, both at every
/// load) cost more than the rest of a change's bookkeeping.
struct SmallList<Element>: RandomAccessCollection, ExpressibleByArrayLiteral {
    private var first: Element?
    private var second: Element?
    private var rest: [Element] = []

    init() {}

    init<Elements: Sequence>(_ elements: Elements) where Elements.Element == Element {
        for element in elements { append(element) }
    }

    init(arrayLiteral elements: Element...) {
        self.init(elements)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { first == nil ? 0 : (second == nil ? 1 : 2 + rest.count) }

    subscript(position: Int) -> Element {
        switch position {
        case 0:
            guard let first else { preconditionFailure("index 0 of an empty list") }
            return first
        case 1:
            guard let second else { preconditionFailure("index 1 of a list of \(count)") }
            return second
        default:
            return rest[position - 2]
        }
    }

    mutating func append(_ element: Element) {
        if first == nil {
            first = element
        } else if second == nil {
            second = element
        } else {
            rest.append(element)
        }
    }

    mutating func reserveCapacity(_ capacity: Int) {
        if capacity > 2 { rest.reserveCapacity(capacity - 2) }
    }
}

extension SmallList: Equatable where Element: Equatable {
    static func == (left: SmallList, right: SmallList) -> Bool { left.elementsEqual(right) }
}

extension SmallList: Sendable where Element: Sendable {}
