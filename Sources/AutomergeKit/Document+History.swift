/// One operation of a change, described for people and tests.
public struct OperationSummary: Sendable, Equatable, CustomStringConvertible {
    /// `makeMap`, `set`, `makeList`, `delete`, `makeText`, `increment`, `makeTable`, `mark`.
    public let action: String
    /// The map key it writes, or `nil` for a list or text element.
    public let key: String?
    public let isInsert: Bool
    public let value: ScalarValue

    public init(action: String, key: String?, isInsert: Bool, value: ScalarValue) {
        self.action = action
        self.key = key
        self.isInsert = isInsert
        self.value = value
    }

    public var description: String { "\(action)\(isInsert ? " insert" : "") \(key ?? "#")" }
}

extension Document {
    /// The operations of the change with this hash, in order; `nil` when the document lacks it.
    public func operations(ofChange hash: ChangeHash) -> [OperationSummary]? {
        guard let index = historyIndex[hash], let change = try? history[index].withOperations() else { return nil }
        return change.operations.map { operation in
            let key: String? = if case .property(let name) = operation.key { name.string } else { nil }
            return OperationSummary(action: "\(operation.action)", key: key, isInsert: operation.insert, value: operation.value)
        }
    }
}

/// One operation of a change with the ids that place it in the document: which object it writes,
/// its own id, and the operations it overwrote or deleted. What a history view needs to follow one
/// object (a record) through a document and to tell which of two concurrent writes won.
public struct ChangeOperation: Sendable, Equatable {
    /// The operation's id (its counter and the change's actor): of two concurrent values of one key,
    /// the greater id is the one the document shows.
    public let id: OperationID
    /// The object it writes into (``ObjectID/root`` for the root map).
    public let object: ObjectID
    /// The map key it writes, or nil for a list or text element.
    public let key: String?
    /// Whether it removes what `predecessors` name instead of writing a value.
    public let isDeletion: Bool
    /// The type of the object it creates (its id as an ``ObjectID`` names it), nil for a scalar write or a deletion.
    public let createdObject: ObjectType?
    /// The operations it overwrote or deleted, as its author saw them.
    public let predecessors: [OperationID]

    /// The id of the object this operation creates (meaningful when ``createdObject`` is not nil).
    public var createdObjectID: ObjectID { ObjectID(counter: id.counter, actor: id.actor) }
}

extension Document {
    /// The operations of the change with this hash, in order, with their ids; nil when the document
    /// lacks the change.
    ///
    /// - Throws: ``AutomergeError`` when the change's stored operations do not decode, or name an
    ///   actor the change does not list.
    public func changeOperations(ofChange hash: ChangeHash) throws(AutomergeError) -> [ChangeOperation]? {
        guard let index = historyIndex[hash] else { return nil }
        let change = try history[index].withOperations()
        let actors = change.actors
        func actor(_ position: Int) throws(AutomergeError) -> ActorID {
            guard position >= 0, position < actors.count else {
                throw AutomergeError(.missingActor, "a change referenced an actor index we couldn't find")
            }
            return actors[position]
        }
        var result: [ChangeOperation] = []
        result.reserveCapacity(change.operations.count)
        for operation in change.operations {
            let object: ObjectID = if let id = operation.object { ObjectID(counter: id.counter, actor: try actor(id.actor)) } else { .root }
            let key: String? = if case .property(let name) = operation.key { name.string } else { nil }
            var predecessors: [OperationID] = []
            predecessors.reserveCapacity(operation.references.count)
            for reference in operation.references {
                predecessors.append(OperationID(counter: reference.counter, actor: try actor(reference.actor)))
            }
            result.append(ChangeOperation(
                id: OperationID(counter: operation.id.counter, actor: try actor(operation.id.actor)),
                object: object, key: key, isDeletion: operation.action == .delete,
                createdObject: operation.action.createdObjectType, predecessors: predecessors))
        }
        return result
    }
}

extension ObjectID {
    /// The operation that created the object; nil for the root, which no operation creates.
    public var creatingOperation: OperationID? {
        guard let actor else { return nil }
        return OperationID(counter: counter, actor: actor)
    }
}
