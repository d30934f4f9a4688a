import AutomergeKit

/// The `.minutafs/conflicts` lines of an object's fields that hold concurrent values (SPEC section 3):
/// of a record (`Store.conflictLines(forRecord:in:)`, `conflictReport`) or of a tag.
enum ConcurrentValueLines {
    /// The keys a record file shows as ISO 8601 dates (`RecordView`), and those `tags.json` does (`TagView`).
    static let recordDateKeys: Set<String> = [RecordField.startTime.key, RecordField.endTime.key], tagDateKeys: Set<String> = ["createdAt"]

    /// One line per field with concurrent values: where, the value shown, and the values that lost,
    /// each as the file shows it (a time under one of `dateKeys` as `"2024-01-15T09:30:00Z"`, a text
    /// comment as its string; other values in typed JSON, SPEC section 3).
    static func lines(of object: ObjectID, in document: Document, label: String, dateKeys: Set<String>) -> [String] {
        document.keys(of: object).compactMap { key in
            let values = document.values(of: object, key: key)
            guard values.count > 1, let winner = values.last else { return nil }
            func show(_ value: Value) -> String {
                let json: JSONValue = switch value {
                case .scalar(.timestamp(let milliseconds)) where dateKeys.contains(key): .string(ISO8601.string(milliseconds: milliseconds))
                case .object(let text, .text): .string(document.text(of: text))
                default: TypedValue.json(value, in: document)
                }
                return json.oneLine
            }
            let losers = values.dropLast().map { show($0.value) }.joined(separator: ", ")
            return "\(label): \(key): shows \(show(winner.value)); also written concurrently: \(losers)\n"
        }
    }
}
