/// The visible state: which operations win, and what value they show.
extension OperationSet {
    /// An operation is visible when nothing has overwritten or deleted it. A counter stays visible
    /// while its only successors are increments. Increments, marks and deletions never are.
    ///
    /// Takes an index rather than an operation: a map key overwritten 10,000 times is checked 10,000
    /// times at each read of it, and copying each operation out of the array (retaining its value and
    /// successors) cost about 12% of a save's CPU time on such a record. The fields are read through the
    /// array's storage: `operations[index].field` copies the whole operation out first (its value and
    /// successors retained, then released), once for each field read.
    func isVisible(at index: Int) -> Bool {
        operations.withUnsafeBufferPointer { operations in
            switch operations[index].action {
            case .increment, .mark, .delete: return false
            default: break
            }
            if operations[index].successors.isEmpty { return true }
            guard operations[index].action == .set, case .counter = operations[index].value else { return false }
            for successor in operations[index].successors {
                guard let successorIndex = operationByID[successor], operations[successorIndex].action == .increment else { return false }
            }
            return true
        }
    }

    /// The visible ones among `indices` (a key's or an element's operations), in their order.
    func visibleOperations<Indices: Collection<Int>>(_ indices: Indices) -> OperationList {
        var visible = OperationList()
        for index in indices where isVisible(at: index) { visible.append(index) }
        return visible
    }

    /// The value an operation shows: the object it made, or its scalar (a counter with its total).
    func value(of operation: Operation) -> Value {
        if let type = operation.action.createdObjectType {
            return .object(exportObjectID(operation.id), type)
        }
        if case .counter(let start) = operation.value {
            return .scalar(.counter(start &+ operation.incrementTotal))
        }
        return .scalar(operation.value)
    }

    func exportOperationID(_ id: OpID) -> OperationID {
        OperationID(counter: id.counter, actor: actors[Int(id.actor)])
    }

    func exportObjectID(_ id: OpID) -> ObjectID {
        id.isRoot ? .root : ObjectID(counter: id.counter, actor: actors[Int(id.actor)])
    }

    func importObjectID(_ id: ObjectID) -> OpID? {
        guard let actor = id.actor else { return .root }
        guard let index = existingIndex(of: actor) else { return nil }
        let opID = OpID(counter: id.counter, actor: index)
        return objects[opID] == nil ? nil : opID
    }

    /// The visible elements of a sequence, in order, each with its visible operations.
    func visibleElements(of object: ObjectState) -> [OperationList] {
        var result: [OperationList] = []
        result.reserveCapacity(object.order.count)
        for store in object.order where object.elementStore[store].shown >= 0 {
            result.append(visibleOperations(object.elementStore[store].operations))
        }
        return result
    }

    /// The text a text object shows: each visible element's string; other values show as U+FFFC.
    /// A deleted element costs a look at its ``ObjectState/Element/shown``, nothing more.
    func text(of object: ObjectState) -> String {
        var text = ""
        object.elementStore.withUnsafeBufferPointer { elements in
            operations.withUnsafeBufferPointer { operations in
                for store in object.order {
                    let shown = elements[store].shown
                    guard shown >= 0 else { continue }
                    if operations[shown].action == .set, case .string(let piece) = operations[shown].value {
                        text += piece
                    } else {
                        text += "\u{FFFC}"
                    }
                }
            }
        }
        return text
    }
}
