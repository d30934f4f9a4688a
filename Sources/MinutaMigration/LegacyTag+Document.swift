import MinutaStore
import AutomergeKit

/// A legacy tag written into the tags document the way the app's migration writes it (seed 003,
/// `AutomergeTag.create`), and read back from it to compare.
extension LegacyTag {
    /// Writes the tag under its id in the root map: `name` and `color` as strings, `createdAt`
    /// as a timestamp, `isArchived` as a boolean, other keys with their JSON types.
    func write(into document: inout Document) throws -> ObjectID {
        let object = try document.putObject(.map, forKey: id)
        try document.put(.string(name), forKey: "name", in: object)
        try document.put(.string(color), forKey: "color", in: object)
        try document.put(.timestamp(createdAt), forKey: "createdAt", in: object)
        try document.put(.boolean(isArchived), forKey: "isArchived", in: object)
        for key in otherFields.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let value = otherFields[key] else { continue }
            try ObjectEditor.write(try TypedValue.desired(value, field: key), forKey: key, in: object, document: &document)
        }
        return object
    }

    /// The tag stored under `key` of the tags document; `nil` when it is not a map. Missing
    /// fields read as what the app shows for them.
    init?(key: String, in document: Document) {
        guard case .object(let object, .map)? = document.value(of: .root, key: key) else { return nil }
        func string(_ field: String) -> String? {
            switch document.value(of: object, key: field) {
            case .scalar(.string(let text))?: text
            case .object(let text, .text)?: document.text(of: text)
            default: nil
            }
        }
        var createdAt: Int64 = 0
        switch document.value(of: object, key: "createdAt") {
        case .scalar(.timestamp(let milliseconds))?, .scalar(.int(let milliseconds))?: createdAt = milliseconds
        default: break
        }
        var isArchived = false
        if case .scalar(.boolean(let flag))? = document.value(of: object, key: "isArchived") { isArchived = flag }
        var others: [String: JSONValue] = [:]
        for name in document.keys(of: object) where !TagView.knownKeys.contains(where: { $0.utf8.elementsEqual(name.utf8) }) {
            if let value = document.value(of: object, key: name) { others[name] = TypedValue.json(value, in: document) }
        }
        self.init(id: RecordID(key).text, name: string("name") ?? "", color: string("color") ?? "#808080",
                  createdAt: createdAt, isArchived: isArchived, otherFields: others)
    }

    /// Whether `stored` (read back from the tags document) holds the same values.
    func hasSameValues(as stored: LegacyTag) -> Bool {
        RecordID(id) == RecordID(stored.id) && name == stored.name && color == stored.color && createdAt == stored.createdAt
            && isArchived == stored.isArchived && StoredFields.same(otherFields, stored.otherFields)
    }
}
