import AutomergeKit

/// How the tags document looks as `tags.json` (SPEC section 3).
package enum TagView {
    package static let knownKeys = ["id", "name", "color", "createdAt", "isArchived"]

    package struct Tag {
        var id: String
        var object: ObjectID
        var createdAt: Int64?
    }

    package static func tags(in document: Document) -> [Tag] {
        document.keys(of: .root).compactMap { key -> Tag? in
            guard case .object(let object, .map)? = document.value(of: .root, key: key) else { return nil }
            var createdAt: Int64?
            if case .scalar(.timestamp(let milliseconds))? = document.value(of: object, key: "createdAt") { createdAt = milliseconds }
            return Tag(id: key, object: object, createdAt: createdAt)
        }
        .sorted { left, right in
            switch (left.createdAt, right.createdAt) {
            case let (a?, b?) where a != b: return a < b
            case (nil, _?): return false
            case (_?, nil): return true
            default: return left.id.utf8.lexicographicallyPrecedes(right.id.utf8)
            }
        }
    }

    package static func json(_ tag: Tag, in document: Document) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(tag.id))]
        for key in ["name", "color", "createdAt", "isArchived"] {
            guard let value = document.value(of: tag.object, key: key) else { continue }
            if key == "createdAt", case .scalar(.timestamp(let milliseconds)) = value {
                members.append((key, .string(ISO8601.string(milliseconds: milliseconds))))
            } else if case .object(let text, .text) = value, key == "name" {
                members.append((key, .string(document.text(of: text))))
            } else {
                members.append((key, TypedValue.json(value, in: document, numbers: .plain)))
            }
        }
        for key in document.keys(of: tag.object) where !knownKeys.contains(where: { $0.utf8.elementsEqual(key.utf8) }) {
            if let value = document.value(of: tag.object, key: key) {
                members.append((key, TypedValue.json(value, in: document, numbers: .plain)))
            }
        }
        return .object(members)
    }

    package static func fileContents(of document: Document) -> [UInt8] {
        JSONWriter.pretty(.object([("tags", .array(tags(in: document).map { json($0, in: document) }))]))
    }
}
