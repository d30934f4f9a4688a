/// A JSON value as a user wrote it. Objects keep their members in the order written; numbers
/// keep the difference between an integer (exact, 64-bit) and a fraction.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// An integer above `Int64.max` (up to `UInt64.max`), kept exact.
    case unsignedInteger(UInt64)
    case number(Double)
    /// An integer written without fraction or exponent that fits no 64-bit integer type (`2^64`), as
    /// written: never stored as a float without a word (the store refuses it).
    case integerOutOfRange(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (left: JSONValue, right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.unsignedInteger(a), .unsignedInteger(b)): a == b
        case let (.number(a), .number(b)): a.bitPattern == b.bitPattern
        case let (.integerOutOfRange(a), .integerOutOfRange(b)): a == b
        case let (.string(a), .string(b)): a.utf8.elementsEqual(b.utf8)
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && $0.value == $1.value }
        default: false
        }
    }

    /// The member named `key` of an object (byte-wise key comparison).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key.utf8.elementsEqual(key.utf8) }?.value
    }
}
