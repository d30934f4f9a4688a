import AutomergeKit

/// How a record of a month document looks as a file (SPEC section 3).
package enum RecordView {
    package static let knownKeys = RecordField.allCases.map(\.key)

    /// The record stored under `key` of the root map, if it is a map.
    package static func object(_ key: String, in document: Document) -> ObjectID? {
        guard case .object(let id, .map)? = document.value(of: .root, key: key) else { return nil }
        return id
    }

    /// The record's startTime in milliseconds, if it has a usable one.
    package static func startTime(of record: ObjectID, in document: Document) -> Int64? {
        switch document.value(of: record, key: RecordField.startTime.key) {
        case .scalar(.timestamp(let milliseconds))?, .scalar(.int(let milliseconds))?: milliseconds
        default: nil
        }
    }

    /// The record's image file names, in order.
    package static func images(of record: ObjectID, in document: Document) -> [String] {
        guard case .object(let list, .list)? = document.value(of: record, key: RecordField.images.key) else { return [] }
        return document.elements(of: list).compactMap { values in
            if case .scalar(.string(let name))? = values.last?.value { return name }
            return nil
        }
    }

    /// The record as the JSON object its file shows.
    package static func json(id: String, record: ObjectID, in document: Document) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [(RecordField.id.key, .string(id))]
        for key in [RecordField.startTime.key, RecordField.endTime.key] {
            guard let value = document.value(of: record, key: key) else { continue }
            if case .scalar(.timestamp(let milliseconds)) = value {
                members.append((key, .string(ISO8601.string(milliseconds: milliseconds))))
            } else {
                members.append((key, TypedValue.json(value, in: document, numbers: .plain)))
            }
        }
        if let value = document.value(of: record, key: RecordField.tagId.key) {
            members.append((RecordField.tagId.key, TypedValue.json(value, in: document, numbers: .plain)))
        }
        if let value = document.value(of: record, key: RecordField.comment.key) {
            if case .object(let text, .text) = value {
                members.append((RecordField.comment.key, .string(document.text(of: text))))
            } else {
                members.append((RecordField.comment.key, TypedValue.json(value, in: document, numbers: .plain)))
            }
        }
        if let value = document.value(of: record, key: RecordField.images.key) {
            members.append((RecordField.images.key, TypedValue.json(value, in: document, numbers: .plain)))
        } else {
            members.append((RecordField.images.key, .array([])))
        }
        for key in document.keys(of: record) where !knownKeys.contains(where: { $0.utf8.elementsEqual(key.utf8) }) {
            if let value = document.value(of: record, key: key) {
                members.append((key, TypedValue.json(value, in: document, numbers: .plain)))
            }
        }
        return .object(members)
    }
}
