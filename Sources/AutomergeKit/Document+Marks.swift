/// Marks on text: spans between a mark-begin and its mark-end element.
extension Document {
    /// The marks of a text object: sorted by name then start, adjacent spans with equal values
    /// joined, spans whose value is null left out. Positions count Unicode scalars.
    public func marks(of object: ObjectID) -> [Mark] {
        guard let state = state(of: object) else { return [] }
        let set = operationSet
        // Active mark-begin operations, by id.
        var active: [(id: OpID, name: ColumnString, value: ScalarValue)] = []
        var spans: [ColumnString: [(start: Int, end: Int, value: ScalarValue)]] = [:]
        var position = 0
        for store in state.order {
            let operations = state.elementStore[store].operations
            let first = set.operations[operations[0]]
            if first.action == .mark {
                if let name = first.markName {
                    active.append((first.id, name, first.value))
                } else {
                    let begin = OpID(counter: first.id.counter &- 1, actor: first.id.actor)
                    active.removeAll { $0.id == begin }
                }
                continue
            }
            let winner = state.elementStore[store].shown
            guard winner >= 0 else { continue }
            var width = 1
            if case .string(let piece) = set.operations[winner].value { width = piece.unicodeScalars.count }
            // For each name, the mark with the greatest id wins.
            var current: [ColumnString: (id: OpID, value: ScalarValue)] = [:]
            for mark in active {
                if let existing = current[mark.name], set.precedes(mark.id, existing.id) { continue }
                current[mark.name] = (mark.id, mark.value)
            }
            for (name, mark) in current {
                var list = spans[name] ?? []
                if let last = list.last, last.end == position, last.value == mark.value {
                    list[list.count - 1].end = position + width
                } else {
                    list.append((position, position + width, mark.value))
                }
                spans[name] = list
            }
            position += width
        }
        return spans.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.flatMap { name in
            (spans[name] ?? []).filter { $0.value != .null }.map {
                Mark(name: name.string, value: $0.value, start: $0.start, end: $0.end)
            }
        }
    }
}
