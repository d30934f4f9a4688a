/// What a known field of a record or tag accepts, and how it is stored.
package enum FieldRule {
    /// A timestamp, written as an ISO 8601 date or integer milliseconds.
    case date(required: Bool)
    /// A UUID string (any case accepted, stored as written).
    case uuid
    /// A string; kept as a text object when it is one, edited by a character-level splice.
    case text(required: Bool)
    /// A list of plain file names, edited by inserts and deletes.
    case fileNames
    /// A `#RRGGBB` colour string, required.
    case color
    /// `true` or `false`, required.
    case boolean

    /// Whether the object must hold the field: it may not be removed or set to `null`, and a new object
    /// without it is refused (a new tag gets defaults for what the app always has, `TagsSaver`).
    var isRequired: Bool {
        switch self {
        case .date(let required), .text(let required): required
        case .color, .boolean: true
        case .uuid, .fileNames: false
        }
    }

    package static let record: [(String, FieldRule)] = [
        (RecordField.startTime.key, .date(required: true)), (RecordField.endTime.key, .date(required: false)), (RecordField.tagId.key, .uuid),
        (RecordField.comment.key, .text(required: false)), (RecordField.images.key, .fileNames),
    ]
    package static let tag: [(String, FieldRule)] = [
        ("name", .text(required: true)), ("color", .color), ("createdAt", .date(required: true)), ("isArchived", .boolean),
    ]

    package static func isValidFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.utf8.contains(UInt8(ascii: "/")) && !name.utf8.contains(0)
            && name.utf8.count <= 255 && !name.contains("\n")
    }

    package static func milliseconds(_ value: JSONValue, field: String) throws(RecordInputError) -> Int64 {
        switch value {
        case .string(let text):
            guard let milliseconds = ISO8601.milliseconds(from: text) else { throw .invalidDate(field: field) }
            return milliseconds
        case .integer(let milliseconds):
            guard ISO8601.validRange.contains(milliseconds) else { throw .invalidDate(field: field) }
            return milliseconds
        default:
            throw .invalidDate(field: field)
        }
    }
}
