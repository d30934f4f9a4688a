/// Names an object of a document: the root map, or the operation that created the object.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    public let counter: UInt64
    /// `nil` for the root.
    public let actor: ActorID?

    public static let root = ObjectID(counter: 0, actor: nil)

    init(counter: UInt64, actor: ActorID?) {
        self.counter = counter
        self.actor = actor
    }

    public var description: String {
        guard let actor else { return "_root" }
        return "\(counter)@\(actor.hexString)"
    }
}

/// Names one operation: its counter and its actor. Ordered as Automerge orders concurrent
/// values: by counter, then by the actor's bytes.
public struct OperationID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let counter: UInt64
    public let actor: ActorID

    public var description: String { "\(counter)@\(actor.hexString)" }

    public static func < (left: OperationID, right: OperationID) -> Bool {
        left.counter != right.counter ? left.counter < right.counter : left.actor < right.actor
    }
}

/// What a key or a list slot holds.
public enum Value: Sendable, Equatable {
    case object(ObjectID, ObjectType)
    case scalar(ScalarValue)
}

/// A span of text carrying a mark, in Unicode scalar positions (end exclusive).
public struct Mark: Sendable, Equatable {
    public let name: String
    public let value: ScalarValue
    public let start: Int
    public let end: Int
}

/// One change of a document's history.
public struct ChangeInfo: Sendable {
    public let hash: ChangeHash
    public let actor: ActorID
    public let sequence: UInt64
    public let startOperation: UInt64
    public let operationCount: Int
    /// Sorted ascending.
    public let dependencies: [ChangeHash]
    public let time: Int64
    public let message: String?
}

extension ObjectID {
    /// The object `description` names: `_root`, or `COUNTER@ACTORHEX`; nil for anything else.
    public init?(parsing text: String) {
        if text == "_root" {
            self = .root
            return
        }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let counter = UInt64(parts[0]), counter > 0,
              let actor = ActorID(hexString: String(parts[1])) else { return nil }
        self.init(counter: counter, actor: actor)
    }
}
