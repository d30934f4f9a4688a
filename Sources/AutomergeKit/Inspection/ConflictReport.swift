extension Document {
    /// Every visible slot that holds more than one concurrent value, one JSON object per line
    /// (without newlines), in the format of the fixtures' `NAME.conflicts` files.
    ///
    /// Each line is `{"path":[…],"values":[{"id":"counter@actor","value":V},…],"winner":"counter@actor"}`:
    /// `path` holds map keys (strings) and list indexes (numbers) from the root, `values` every
    /// concurrent value in ascending op id order, objects shown in full as in `typedJSON()`, and
    /// `winner` the id of the last, visible one. Slots are visited depth-first (map keys in code-point
    /// order, list indexes ascending), a slot's own line before those inside its winning value.
    /// Text contents and losing objects are not searched. A document without conflicts gives `[]`.
    public func conflictLines() -> [String] {
        var lines: [String] = []
        var stack: [ConflictSearchFrame] = [ConflictSearchFrame(object: .root, type: .map, in: self)]
        // The path of the slot being visited: one component per frame below the root's.
        var path: [ConflictPathComponent] = []
        while let top = stack.indices.last {
            let frame = stack[top]
            guard frame.next < frame.count else {
                stack.removeLast()
                if !path.isEmpty { path.removeLast() }
                continue
            }
            stack[top].next += 1
            let values: [(id: OperationID, value: Value)]
            if let keys = frame.keys {
                let key = keys[frame.next]
                path.append(.key(key))
                values = self.values(of: frame.object, key: key)
            } else {
                path.append(.index(frame.next))
                values = self.values(of: frame.object, index: frame.next)
            }
            if values.count > 1 {
                lines.append(conflictLine(path: path, values: values))
            }
            if case .object(let object, let type)? = values.last?.value, type != .text {
                stack.append(ConflictSearchFrame(object: object, type: type, in: self))
            } else {
                path.removeLast()
            }
        }
        return lines
    }

    private func conflictLine(path: [ConflictPathComponent], values: [(id: OperationID, value: Value)]) -> String {
        var output = JSONOutput()
        output.appendRaw("{\"path\":[")
        for (index, component) in path.enumerated() {
            if index > 0 { output.appendRaw(byte: UInt8(ascii: ",")) }
            switch component {
            case .key(let key): output.appendString(key)
            case .index(let listIndex): output.appendInteger(listIndex)
            }
        }
        output.appendRaw("],\"values\":[")
        for (index, entry) in values.enumerated() {
            if index > 0 { output.appendRaw(byte: UInt8(ascii: ",")) }
            output.appendRaw("{\"id\":")
            output.appendString(entry.id.description)
            output.appendRaw(",\"value\":")
            output.appendTypedJSON(entry.value, of: self)
            output.appendRaw(byte: UInt8(ascii: "}"))
        }
        output.appendRaw("],\"winner\":")
        output.appendString(values[values.count - 1].id.description)
        output.appendRaw(byte: UInt8(ascii: "}"))
        return output.makeString()
    }
}

private enum ConflictPathComponent {
    case key(String)
    case index(Int)
}

/// A map, table or list whose slots are being searched for conflicts.
private struct ConflictSearchFrame {
    let object: ObjectID
    /// The visible keys of a map or table; `nil` for a list.
    let keys: [String]?
    let count: Int
    var next = 0

    /// Text is never searched (its contents are not slots); a `.text` frame would walk its
    /// elements as a list.
    init(object: ObjectID, type: ObjectType, in document: Document) {
        self.object = object
        switch type {
        case .map, .table:
            let keys = document.keys(of: object)
            self.keys = keys
            count = keys.count
        case .list, .text:
            keys = nil
            count = document.length(of: object)
        }
    }
}
