/// Reading the visible state.
extension Document {
    public func objectType(of object: ObjectID) -> ObjectType? {
        guard let id = operationSet.importObjectID(object) else { return nil }
        return operationSet.objects[id]?.type
    }

    /// The keys of a map or table that have a visible value, in UTF-8 byte order.
    public func keys(of object: ObjectID) -> [String] {
        guard let state = state(of: object) else { return [] }
        let set = operationSet
        return state.keys.keys.filter { !state.visibleOperations(at: $0).isEmpty }
        .map { set.properties[$0] }
        .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        .map(\.string)
    }

    /// Every concurrent value of a key, ascending by operation id: the last one is the value
    /// the document shows. Empty when the key has no value.
    public func values(of object: ObjectID, key: String) -> [(id: OperationID, value: Value)] {
        guard let state = state(of: object), let property = operationSet.existingProperty(ColumnString(key)) else { return [] }
        return export(state.visibleOperations(at: property))
    }

    /// The value a key shows, if any: the last of ``values(of:key:)``, found without making the others'
    /// values or copying the object's state (a record's JSON reads a dozen keys).
    public func value(of object: ObjectID, key: String) -> Value? {
        guard let id = operationSet.importObjectID(object), let property = operationSet.existingProperty(ColumnString(key)),
              let last = operationSet.objects[id]?.visibleOperations(at: property).last else { return nil }
        return operationSet.value(of: operationSet.operations[last])
    }

    /// The number of visible elements of a list or text.
    public func length(of object: ObjectID) -> Int {
        guard let state = state(of: object) else { return 0 }
        var count = 0
        for store in state.order where state.elementStore[store].shown >= 0 { count += 1 }
        return count
    }

    /// Every concurrent value of a list slot, ascending by operation id.
    public func values(of object: ObjectID, index: Int) -> [(id: OperationID, value: Value)] {
        guard let state = state(of: object), index >= 0 else { return [] }
        var position = 0
        for store in state.order where state.elementStore[store].shown >= 0 {
            if position == index { return export(operationSet.visibleOperations(state.elementStore[store].operations)) }
            position += 1
        }
        return []
    }

    /// The value a list slot shows, if any.
    public func value(of object: ObjectID, index: Int) -> Value? {
        values(of: object, index: index).last?.value
    }

    /// Every visible list element's values, in order (one pass; prefer it to indexing in a loop).
    public func elements(of object: ObjectID) -> [[(id: OperationID, value: Value)]] {
        guard let state = state(of: object) else { return [] }
        return operationSet.visibleElements(of: state).map { export($0) }
    }

    /// The string a text object shows.
    public func text(of object: ObjectID) -> String {
        guard let state = state(of: object) else { return "" }
        return operationSet.text(of: state)
    }

    func state(of object: ObjectID) -> ObjectState? {
        guard let id = operationSet.importObjectID(object) else { return nil }
        return operationSet.objects[id]
    }

    private func export<Indices: Collection<Int>>(_ indices: Indices) -> [(id: OperationID, value: Value)] {
        indices.map { index in
            let operation = operationSet.operations[index]
            return (operationSet.exportOperationID(operation.id), operationSet.value(of: operation))
        }
    }
}
