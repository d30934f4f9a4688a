#if canImport(Glibc)
import Glibc
#endif

/// Local operations made since the last commit, already applied to the state.
struct PendingTransaction: Sendable {
    var operations: [ChunkOperation] = []
    var startOperation: UInt64 = 0
    var dependencies: [ChangeHash] = []
}

/// Editing: every method applies one or more operations at once; ``commit(message:time:)``
/// gathers them into a change, as automerge 0.6 builds it (op ids, predecessors, sequence number,
/// start op, dependencies on the heads).
extension Document {
    // MARK: Maps

    /// Sets a key to a scalar. Setting the value a key already shows (and only that value) does nothing.
    public mutating func put(_ value: ScalarValue, forKey key: String, in object: ObjectID = .root) throws(AutomergeError) {
        try mapOperation(.set, value: value, key: key, in: object)
    }

    /// Sets a key to a new, empty object and returns its id.
    @discardableResult
    public mutating func putObject(_ type: ObjectType, forKey key: String, in object: ObjectID = .root) throws(AutomergeError) -> ObjectID {
        let id = try mapOperation(Action(making: type), value: .null, key: key, in: object)
        return operationSet.exportObjectID(id)
    }

    /// Deletes a key. Deleting a key without a value does nothing.
    public mutating func delete(forKey key: String, in object: ObjectID = .root) throws(AutomergeError) {
        try mapOperation(.delete, value: .null, key: key, in: object)
    }

    /// Adds `amount` to the counter a key holds.
    public mutating func increment(forKey key: String, in object: ObjectID = .root, by amount: Int64) throws(AutomergeError) {
        try mapOperation(.increment, value: .int(amount), key: key, in: object)
    }

    // MARK: Lists and text

    /// Replaces the value of a list slot.
    public mutating func put(_ value: ScalarValue, at index: Int, in object: ObjectID) throws(AutomergeError) {
        try elementOperation(.set, value: value, index: index, in: object)
    }

    @discardableResult
    public mutating func putObject(_ type: ObjectType, at index: Int, in object: ObjectID) throws(AutomergeError) -> ObjectID {
        let id = try elementOperation(Action(making: type), value: .null, index: index, in: object)
        return operationSet.exportObjectID(id)
    }

    public mutating func increment(at index: Int, in object: ObjectID, by amount: Int64) throws(AutomergeError) {
        try elementOperation(.increment, value: .int(amount), index: index, in: object)
    }

    /// Inserts a scalar so that it ends up at `index`.
    public mutating func insert(_ value: ScalarValue, at index: Int, in object: ObjectID) throws(AutomergeError) {
        try splice(object, at: index, delete: 0, insert: [value])
    }

    /// Inserts a new, empty object at `index` and returns its id.
    @discardableResult
    public mutating func insertObject(_ type: ObjectType, at index: Int, in object: ObjectID) throws(AutomergeError) -> ObjectID {
        let (id, state) = try sequence(object)
        guard state.type == .list else { throw AutomergeError(.invalidArgument, "objects can only be inserted into lists") }
        let reference = try insertionReference(in: state, at: index, counting: .elements)
        let opID = try apply(object: id, key: .element(reference), insert: true, action: Action(making: type), value: .null, predecessors: [])
        return operationSet.exportObjectID(opID)
    }

    /// Deletes the element at `index`.
    public mutating func delete(at index: Int, in object: ObjectID) throws(AutomergeError) {
        try splice(object, at: index, delete: 1, insert: [])
    }

    /// Deletes `count` elements at `index` of a list, then inserts `values` there.
    public mutating func splice(_ object: ObjectID, at index: Int, delete count: Int, insert values: [ScalarValue]) throws(AutomergeError) {
        let (id, state) = try sequence(object)
        let unit: IndexUnit = state.type == .text ? .scalars : .elements
        try spliceOperations(id, at: index, delete: count, insert: values, unit: unit)
    }

    /// Deletes `count` Unicode scalars of a text object at `index`, then inserts `text` there, one
    /// element per Unicode scalar (automerge 0.6's default text encoding).
    public mutating func spliceText(_ object: ObjectID, at index: Int, delete count: Int, insert text: String) throws(AutomergeError) {
        let (id, state) = try sequence(object)
        guard state.type == .text else { throw AutomergeError(.invalidArgument, "spliceText needs a text object") }
        try spliceOperations(id, at: index, delete: count, insert: text.unicodeScalars.map { .string(String($0)) }, unit: .scalars)
    }

    // MARK: Commit

    /// Gathers the operations made since the last commit into one change. Does nothing and
    /// returns `nil` when there are none.
    /// - Parameters:
    ///   - message: an optional commit message.
    ///   - time: the commit time as stored; automerge-swift writes whole seconds since the epoch,
    ///     which is the default.
    /// Operations made since the last `commit`: part of the document's content, in no change yet.
    public var uncommittedOperationCount: Int { pending.operations.count }

    @discardableResult
    public mutating func commit(message: String? = nil, time: Int64? = nil) -> ChangeHash? {
        guard !pending.operations.isEmpty else { return nil }
        let author = Int(operationSet.index(of: actor))
        let change = StoredChange.build(
            author: author, actorTable: operationSet.actors,
            sequence: sequenceByActor[actor, default: 0] + 1, startOperation: pending.startOperation,
            time: time ?? Self.currentTimeInSeconds(), message: message, dependencies: pending.dependencies,
            extraBytes: [], operations: pending.operations)
        pending = PendingTransaction()
        recordInHistory(change)
        return change.hash
    }

    private static func currentTimeInSeconds() -> Int64 {
        #if canImport(Glibc)
        return Int64(Glibc.time(nil))
        #else
        return 0
        #endif
    }

    // MARK: Machinery

    enum IndexUnit { case elements, scalars }

    @discardableResult
    private mutating func mapOperation(_ action: Action, value: ScalarValue, key: String, in object: ObjectID) throws(AutomergeError) -> OpID {
        guard let id = operationSet.importObjectID(object), let state = operationSet.objects[id], let type = state.type else {
            throw AutomergeError(.invalidArgument, "no object \(object)")
        }
        guard type == .map || type == .table else { throw AutomergeError(.invalidArgument, "object \(object) is not a map") }
        let property = operationSet.property(ColumnString(key))
        let visible = state.visibleOperations(at: property)
        if visible.isEmpty && action == .delete { return .root }
        if visible.count == 1, action == .set, operationSet.operations[visible[0]].action == .set,
           operationSet.operations[visible[0]].value == value {
            return .root
        }
        if action == .increment && !visible.contains(where: { operationSet.operations[$0].isCounter }) {
            throw AutomergeError(.invalidArgument, "key \"\(key)\" holds no counter to increment")
        }
        return try apply(object: id, key: .property(property), insert: false, action: action, value: value,
                         predecessors: visible.map { operationSet.operations[$0].id })
    }

    @discardableResult
    private mutating func elementOperation(_ action: Action, value: ScalarValue, index: Int, in object: ObjectID) throws(AutomergeError) -> OpID {
        let (id, state) = try sequence(object)
        guard let (store, visible) = visibleElement(in: state, at: index, counting: .elements) else {
            throw AutomergeError(.invalidArgument, "index \(index) is out of range")
        }
        if visible.count == 1, action == .set, operationSet.operations[visible[0]].action == .set,
           operationSet.operations[visible[0]].value == value {
            return .root
        }
        if action == .increment && !visible.contains(where: { operationSet.operations[$0].isCounter }) {
            throw AutomergeError(.invalidArgument, "element \(index) holds no counter to increment")
        }
        let element = operationSet.operations[state.elementStore[store].operations[0]].id
        return try apply(object: id, key: .element(element), insert: false, action: action, value: value,
                         predecessors: visible.map { operationSet.operations[$0].id })
    }

    private mutating func spliceOperations(_ id: OpID, at index: Int, delete count: Int, insert values: [ScalarValue], unit: IndexUnit) throws(AutomergeError) {
        guard index >= 0, count >= 0 else { throw AutomergeError(.invalidArgument, "negative index or count") }
        var deleted = 0
        var position = index
        while deleted < count {
            guard let state = operationSet.objects[id],
                  let (store, visible) = visibleElement(in: state, at: position, counting: unit) else {
                throw AutomergeError(.invalidArgument, "index \(index + count) is out of range")
            }
            let elementStart = self.position(ofStore: store, in: state, counting: unit)
            if elementStart < position {
                deleted -= position - elementStart
                position = elementStart
            }
            let width = unit == .scalars ? self.width(of: operationSet.operations[visible[visible.count - 1]]) : 1
            let element = operationSet.operations[state.elementStore[store].operations[0]].id
            try apply(object: id, key: .element(element), insert: false, action: .delete, value: .null,
                      predecessors: visible.map { operationSet.operations[$0].id })
            deleted += width
        }
        guard !values.isEmpty, let state = operationSet.objects[id] else { return }
        var reference = try insertionReference(in: state, at: position, counting: unit)
        for value in values {
            reference = try apply(object: id, key: .element(reference), insert: true, action: .set, value: value, predecessors: [])
        }
    }

    private func sequence(_ object: ObjectID) throws(AutomergeError) -> (OpID, ObjectState) {
        guard let id = operationSet.importObjectID(object), let state = operationSet.objects[id], let type = state.type else {
            throw AutomergeError(.invalidArgument, "no object \(object)")
        }
        guard type.isSequence else { throw AutomergeError(.invalidArgument, "object \(object) is not a list or text") }
        return (id, state)
    }

    private func width(of operation: Operation) -> Int {
        if operation.action == .set, case .string(let piece) = operation.value { return piece.unicodeScalars.count }
        return 1
    }

    /// The element covering `index` and its visible operations.
    private func visibleElement(in state: ObjectState, at index: Int, counting unit: IndexUnit) -> (Int, OperationList)? {
        guard index >= 0 else { return nil }
        var position = 0
        for store in state.order {
            let winner = state.elementStore[store].shown
            guard winner >= 0 else { continue }
            let size = unit == .scalars ? width(of: operationSet.operations[winner]) : 1
            if index < position + size { return (store, operationSet.visibleOperations(state.elementStore[store].operations)) }
            position += size
        }
        return nil
    }

    private func position(ofStore target: Int, in state: ObjectState, counting unit: IndexUnit) -> Int {
        var position = 0
        for store in state.order {
            if store == target { return position }
            let winner = state.elementStore[store].shown
            guard winner >= 0 else { continue }
            position += unit == .scalars ? width(of: operationSet.operations[winner]) : 1
        }
        return position
    }

    /// The element a new element inserted at `index` goes after: the last visible element before
    /// it, or the head.
    private func insertionReference(in state: ObjectState, at index: Int, counting unit: IndexUnit) throws(AutomergeError) -> OpID {
        guard index >= 0 else { throw AutomergeError(.invalidArgument, "index \(index) is out of range") }
        if index == 0 { return .root }
        var position = 0
        for store in state.order {
            let winner = state.elementStore[store].shown
            guard winner >= 0 else { continue }
            position += unit == .scalars ? width(of: operationSet.operations[winner]) : 1
            if position == index { return operationSet.operations[state.elementStore[store].operations[0]].id }
            if position > index { throw AutomergeError(.invalidArgument, "index \(index) falls inside a text element") }
        }
        throw AutomergeError(.invalidArgument, "index \(index) is out of range")
    }

    /// Applies one local operation and records it for the next commit.
    @discardableResult
    private mutating func apply(
        object: OpID, key: OpKey, insert: Bool, action: Action, value: ScalarValue, predecessors: [OpID]
    ) throws(AutomergeError) -> OpID {
        let author = operationSet.index(of: actor)
        if pending.operations.isEmpty {
            // The largest op counter in the history: each actor's largest (an actor's changes count up),
            // kept as changes are recorded, rather than a walk through every change of the history.
            pending.startOperation = (maxOperationByActor.values.max() ?? 0) + 1
            pending.dependencies = heads
        }
        let id = OpID(counter: pending.startOperation + UInt64(pending.operations.count), actor: author)
        let sorted = predecessors.sorted(by: operationSet.lamportOrder.precedes)
        try operationSet.apply(
            Operation(id: id, object: object, key: key, insert: insert, action: action, value: value,
                      successors: [], expand: false, markName: nil),
            predecessors: sorted)
        let set = operationSet
        func chunkID(_ id: OpID) -> ChunkOpID { ChunkOpID(counter: id.counter, actor: Int(id.actor)) }
        let chunkKey: ChunkKey
        switch key {
        case .property(let property): chunkKey = .property(set.properties[property])
        case .element(let element): chunkKey = element.isRoot ? .head : .element(chunkID(element))
        }
        pending.operations.append(ChunkOperation(
            id: chunkID(id), object: object.isRoot ? nil : chunkID(object), key: chunkKey, insert: insert,
            action: action, value: value, references: sorted.map(chunkID), expand: false, markName: nil))
        return id
    }
}
