extension JSONOutput {
    /// Appends `value` in typed JSON (fixtures README, "Typed JSON"), objects in full.
    ///
    /// Nested objects are walked with an explicit stack, not recursion, so a document nested
    /// arbitrarily deep (a crafted file can be) cannot overflow the call stack.
    mutating func appendTypedJSON(_ value: Value, of document: Document) {
        var stack: [OpenContainer] = []
        appendValueOrOpen(value, of: document, stack: &stack)
        while let top = stack.indices.last {
            let container = stack[top]
            guard container.next < container.count else {
                appendRaw(container.closing)
                stack.removeLast()
                continue
            }
            stack[top].next += 1
            if container.next > 0 { appendRaw(byte: UInt8(ascii: ",")) }
            let values: [(id: OperationID, value: Value)]
            if let keys = container.keys {
                let key = keys[container.next]
                appendString(key)
                appendRaw(byte: UInt8(ascii: ":"))
                values = document.values(of: container.object, key: key)
            } else {
                values = document.values(of: container.object, index: container.next)
            }
            // A visible slot always has a value; `null` keeps the output valid JSON if it had not.
            appendValueOrOpen(values.last?.value ?? .scalar(.null), of: document, stack: &stack)
        }
    }

    /// Writes a scalar or a text object whole; for a map, table or list writes the opening bracket
    /// and pushes the container, whose slots the caller's loop then writes.
    private mutating func appendValueOrOpen(_ value: Value, of document: Document, stack: inout [OpenContainer]) {
        switch value {
        case .scalar(let scalar):
            appendTypedScalar(scalar)
        case .object(let object, .text):
            appendText(object, of: document)
        case .object(let object, .map):
            appendRaw(byte: UInt8(ascii: "{"))
            let keys = document.keys(of: object)
            stack.append(OpenContainer(object: object, keys: keys, count: keys.count, closing: "}"))
        case .object(let object, .table):
            appendRaw("{\"_table\":{")
            let keys = document.keys(of: object)
            stack.append(OpenContainer(object: object, keys: keys, count: keys.count, closing: "}}"))
        case .object(let object, .list):
            appendRaw(byte: UInt8(ascii: "["))
            stack.append(OpenContainer(object: object, keys: nil, count: document.length(of: object), closing: "]"))
        }
    }

    /// `{"_text":"..."}`, or `{"_marks":[...],"_text":"..."}` when the text has marks.
    private mutating func appendText(_ object: ObjectID, of document: Document) {
        let marks = document.marks(of: object)
        if marks.isEmpty {
            appendRaw("{\"_text\":")
        } else {
            appendRaw("{\"_marks\":[")
            for (index, mark) in marks.enumerated() {
                if index > 0 { appendRaw(byte: UInt8(ascii: ",")) }
                appendRaw("{\"end\":")
                appendInteger(mark.end)
                appendRaw(",\"name\":")
                appendString(mark.name)
                appendRaw(",\"start\":")
                appendInteger(mark.start)
                appendRaw(",\"value\":")
                appendTypedScalar(mark.value)
                appendRaw(byte: UInt8(ascii: "}"))
            }
            appendRaw("],\"_text\":")
        }
        appendString(document.text(of: object))
        appendRaw(byte: UInt8(ascii: "}"))
    }

    /// Appends a scalar: str, bool, null and int plain, the other types tagged.
    mutating func appendTypedScalar(_ scalar: ScalarValue) {
        switch scalar {
        case .null:
            appendRaw("null")
        case .boolean(let value):
            appendRaw(value ? "true" : "false")
        case .int(let value):
            appendInteger(value)
        case .uint(let value):
            appendRaw("{\"_uint\":")
            appendInteger(value)
            appendRaw(byte: UInt8(ascii: "}"))
        case .f64(let value):
            appendRaw("{\"_f64\":")
            appendDouble(value)
            appendRaw(byte: UInt8(ascii: "}"))
        case .string(let value):
            appendString(value)
        case .bytes(let value):
            appendRaw("{\"_bytes\":")
            appendHexString(value)
            appendRaw(byte: UInt8(ascii: "}"))
        case .counter(let value):
            appendRaw("{\"_counter\":")
            appendInteger(value)
            appendRaw(byte: UInt8(ascii: "}"))
        case .timestamp(let value):
            appendRaw("{\"_ts\":")
            appendInteger(value)
            appendRaw(byte: UInt8(ascii: "}"))
        case .unknown(let typeCode, let bytes):
            appendRaw("{\"_unknown\":{\"bytes\":")
            appendHexString(bytes)
            appendRaw(",\"type\":")
            appendInteger(typeCode)
            appendRaw("}}")
        }
    }
}

/// A map, table or list whose opening bracket is written and whose slots are being written.
private struct OpenContainer {
    let object: ObjectID
    /// The visible keys of a map or table; `nil` for a list.
    let keys: [String]?
    let count: Int
    let closing: StaticString
    var next = 0
}
