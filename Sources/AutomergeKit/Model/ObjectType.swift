/// The kinds of object a document holds.
public enum ObjectType: Sendable, Equatable {
    case map, list, text, table

    var isSequence: Bool { self == .list || self == .text }
}
