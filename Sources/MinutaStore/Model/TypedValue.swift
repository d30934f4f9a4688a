import AutomergeKit

/// Converts between document values and the JSON a user sees: plain JSON where JSON has the type
/// (strings, signed integers, booleans, null, maps, lists), tagged objects otherwise
/// (`{"_ts": ms}`, `{"_counter": n}`, `{"_uint": n}`, `{"_f64": x}`, `{"_bytes": "hex"}`,
/// `{"_text": "..."}`, `{"_table": {...}}`), as SPEC section 2 defines them.
///
/// Record and tag files (`Numbers.plain`) show unsigned integers and finite floats as plain JSON
/// numbers (a float always with a point or an exponent, `2.5`, `1000.0`, `1e+20`); a save then keeps
/// each number's stored type where the written value fits it (`fitted(_:to:in:)`).
package enum TypedValue {
    /// How numbers JSON has no type for are shown.
    package enum Numbers {
        /// `{"_uint": n}` and `{"_f64": x}`: every type said (`minutafs inspect`, the fixtures' format).
        case tagged
        /// Plain JSON numbers (record and tag files); a float that is not finite stays tagged.
        case plain
    }

    package static func json(_ value: Value, in document: Document, depth: Int = 0, numbers: Numbers = .tagged) -> JSONValue {
        switch value {
        case .scalar(let scalar): return json(scalar, numbers: numbers)
        case .object(let id, let type):
            guard depth < 64 else { return .null }
            switch type {
            case .text: return .object([("_text", .string(document.text(of: id)))])
            case .list:
                return .array(document.elements(of: id).compactMap { $0.last.map { json($0.value, in: document, depth: depth + 1, numbers: numbers) } })
            case .map, .table:
                let members: [(key: String, value: JSONValue)] = document.keys(of: id).compactMap { key in
                    document.value(of: id, key: key).map { (key, json($0, in: document, depth: depth + 1, numbers: numbers)) }
                }
                return type == .map ? .object(members) : .object([("_table", .object(members))])
            }
        }
    }

    package static func json(_ scalar: ScalarValue, numbers: Numbers = .tagged) -> JSONValue {
        switch (scalar, numbers) {
        case (.uint(let number), .plain): return .unsignedInteger(number)
        case (.f64(let number), .plain) where number.isFinite: return .number(number)
        default: return json(scalar)
        }
    }

    private static func json(_ scalar: ScalarValue) -> JSONValue {
        switch scalar {
        case .null: .null
        case .boolean(let flag): .bool(flag)
        case .int(let number): .integer(number)
        case .uint(let number): .object([("_uint", .unsignedInteger(number))])
        case .f64(let number):
            .object([("_f64", number.isFinite ? .number(number) : .string(number.isNaN ? "NaN" : (number < 0 ? "-inf" : "inf")))])
        case .string(let text): .string(text)
        case .bytes(let bytes): .object([("_bytes", .string(hex(bytes)))])
        case .counter(let total): .object([("_counter", .integer(total))])
        case .timestamp(let milliseconds): .object([("_ts", .integer(milliseconds))])
        case .unknown(let code, let bytes):
            .object([("_unknown", .object([("bytes", .string(hex(bytes))), ("type", .integer(Int64(code)))]))])
        }
    }

    package static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// What a JSON value written by a user asks to store.
    package indirect enum Desired: Equatable {
        case scalar(ScalarValue)
        case text(String)
        case list([Desired])
        case map([(key: String, value: Desired)])
        case table([(key: String, value: Desired)])

        package static func == (left: Desired, right: Desired) -> Bool {
            switch (left, right) {
            case let (.scalar(a), .scalar(b)): a == b
            case let (.text(a), .text(b)): a.utf8.elementsEqual(b.utf8)
            case let (.list(a), .list(b)): a == b
            case let (.map(a), .map(b)), let (.table(a), .table(b)):
                a.count == b.count && zip(a, b).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && $0.value == $1.value }
            default: false
            }
        }
    }

    /// Reads a user's JSON value as a value to store; tagged objects become their types.
    package static func desired(_ json: JSONValue, field: String) throws(RecordInputError) -> Desired {
        switch json {
        case .null: return .scalar(.null)
        case .bool(let flag): return .scalar(.boolean(flag))
        case .integer(let number): return .scalar(.int(number))
        case .unsignedInteger(let number): return .scalar(.uint(number))
        case .number(let number): return .scalar(.f64(number))
        case .integerOutOfRange(let text): throw .integerOutOfRange(field: field, text)
        case .string(let text): return .scalar(.string(text))
        case .array(let elements):
            var result: [Desired] = []
            for element in elements { result.append(try desired(element, field: field)) }
            return .list(result)
        case .object(let members):
            if members.count == 1, let tag = members.first, tag.key.hasPrefix("_") {
                return try tagged(tag.key, tag.value, field: field)
            }
            var result: [(key: String, value: Desired)] = []
            for member in members { result.append((member.key, try desired(member.value, field: field))) }
            return .map(result)
        }
    }

    private static func tagged(_ tag: String, _ value: JSONValue, field: String) throws(RecordInputError) -> Desired {
        func fail(_ expected: String) -> RecordInputError { .wrongType(field: field, expected: expected) }
        switch (tag, value) {
        case ("_ts", .integer(let milliseconds)): return .scalar(.timestamp(milliseconds))
        case ("_counter", .integer(let total)): return .scalar(.counter(total))
        case ("_uint", .integer(let number)) where number >= 0: return .scalar(.uint(UInt64(number)))
        case ("_uint", .unsignedInteger(let number)): return .scalar(.uint(number))
        case ("_f64", .number(let number)): return .scalar(.f64(number))
        case ("_f64", .integer(let number)): return .scalar(.f64(Double(number)))
        case ("_f64", .string("NaN")): return .scalar(.f64(.nan))
        case ("_f64", .string("inf")): return .scalar(.f64(.infinity))
        case ("_f64", .string("-inf")): return .scalar(.f64(-.infinity))
        case ("_bytes", .string(let text)):
            guard let bytes = bytes(hex: text) else { throw fail("\"_bytes\" as lowercase hex digits") }
            return .scalar(.bytes(bytes))
        case ("_text", .string(let text)): return .text(text)
        case ("_table", .object(let members)):
            var result: [(key: String, value: Desired)] = []
            for member in members { result.append((member.key, try desired(member.value, field: field))) }
            return .table(result)
        case ("_unknown", .object):
            guard case .integer(let code)? = value["type"], (10...15).contains(code),
                  case .string(let text)? = value["bytes"], let bytes = bytes(hex: text) else {
                throw fail("\"_unknown\" with \"type\" (10 to 15) and \"bytes\" (hex)")
            }
            return .scalar(.unknown(typeCode: UInt8(code), bytes: bytes))
        default:
            throw fail("a typed value such as {\"_ts\": milliseconds}; \"\(tag)\" with this value is not one")
        }
    }

    package static func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            result.append(high << 4 | low)
            index += 2
        }
        return result
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 48...57: digit - 48
        case 97...102: digit - 87
        case 65...70: digit - 55
        default: nil
        }
    }

    /// A short name of a stored value's kind, for "expected" messages.
    package static func kindName(_ value: Value) -> String {
        switch value {
        case .object(_, let type):
            switch type { case .map: "an object"; case .list: "an array"; case .text: "a text"; case .table: "a table" }
        case .scalar(let scalar):
            switch scalar {
            case .null: "null"
            case .boolean: "true or false"
            case .int: "an integer"
            case .uint: "a number"
            case .f64: "a number"
            case .string: "a string"
            case .bytes: "{\"_bytes\": \"hex\"}"
            case .counter: "{\"_counter\": n}"
            case .timestamp: "{\"_ts\": milliseconds}"
            case .unknown: "{\"_unknown\": {...}}"
            }
        }
    }

    /// `desired` with each number given the type of the stored number at its place (`stored`, read in
    /// `document`), where the written value fits that type exactly: a plain `7` written over an
    /// unsigned integer stays unsigned, `3` over a float becomes `3.0`, `4.0` over a signed integer
    /// stays an integer. A number that does not fit (`2.5` over an integer, `-1` over an unsigned one)
    /// keeps the type JSON gives it. Maps are matched by key and lists by position, all the way down.
    package static func fitted(_ desired: Desired, to stored: Value?, in document: Document, depth: Int = 0) -> Desired {
        guard let stored, depth < 64 else { return desired }
        switch (desired, stored) {
        case (.scalar(let scalar), .scalar(let kind)):
            return .scalar(fitted(scalar, to: kind) ?? scalar)
        case (.map(let members), .object(let id, .map)), (.table(let members), .object(let id, .table)):
            let fittedMembers = members.map { member in
                (key: member.key, value: fitted(member.value, to: document.value(of: id, key: member.key), in: document, depth: depth + 1))
            }
            if case .map = desired { return .map(fittedMembers) }
            return .table(fittedMembers)
        case (.list(let items), .object(let id, .list)):
            let elements = document.elements(of: id)
            return .list(items.enumerated().map { index, item in
                fitted(item, to: index < elements.count ? elements[index].last?.value : nil, in: document, depth: depth + 1)
            })
        default:
            return desired
        }
    }

    /// `value` as a number of `kind`'s type, when it is a number that type holds exactly.
    private static func fitted(_ value: ScalarValue, to kind: ScalarValue) -> ScalarValue? {
        switch (value, kind) {
        case (.int(let number), .uint) where number >= 0: return .uint(UInt64(number))
        case (.int(let number), .f64):
            let double = Double(number)
            return Int64(exactly: double) == number ? .f64(double) : nil
        case (.uint(let number), .f64):
            let double = Double(number)
            return UInt64(exactly: double) == number ? .f64(double) : nil
        case (.f64(let number), .int): return Int64(exactly: number).map { .int($0) }
        case (.f64(let number), .uint): return UInt64(exactly: number).map { .uint($0) }
        case (.uint(let number), .int): return Int64(exactly: number).map { .int($0) }
        default: return nil
        }
    }

    /// Whether a scalar is a number of any of the three types.
    package static func isNumber(_ value: ScalarValue) -> Bool {
        switch value {
        case .int, .uint, .f64: true
        default: false
        }
    }

    /// Whether a desired value is of the same kind as a stored one (so a key keeps its type).
    package static func sameKind(_ desired: Desired, _ stored: Value) -> Bool {
        switch (desired, stored) {
        case (.scalar(.null), _): true
        case (_, .scalar(.null)): true
        case (.text, .object(_, .text)), (.list, .object(_, .list)), (.map, .object(_, .map)), (.table, .object(_, .table)): true
        case let (.scalar(a), .scalar(b)):
            switch (a, b) {
            case (.boolean, .boolean), (.int, .int), (.uint, .uint), (.f64, .f64), (.string, .string), (.bytes, .bytes),
                 (.counter, .counter), (.timestamp, .timestamp), (.unknown, .unknown): true
            default: false
            }
        default: false
        }
    }
}
