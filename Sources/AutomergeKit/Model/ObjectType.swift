/// The kinds of object a document holds.
public enum ObjectType: Sendable, Equatable {
    case map, list, text, table

    var isSequence: Bool { self == .list || self == .text }

    /// Whether an operation with `key` belongs in an object of this type: map keys in maps and tables,
    /// elements in lists and text.
    func holds(_ key: OpKey) -> Bool {
        switch key {
        case .property: return !isSequence
        case .element: return isSequence
        }
    }
}
