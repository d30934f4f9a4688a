import MinutaStore
import AutomergeKit

/// A legacy record written into a month document the way the app's migration writes it
/// (seed 003, `AutomergeTimeRecord.create`), and read back from one to compare.
extension LegacyRecord {
    /// Writes the record under its id in the document's root map: `startTime` and `endTime` as
    /// timestamps (no `endTime` for a running timer), `tagId` and `comment` as strings when set,
    /// `images` as a list of strings, other keys with their JSON types.
    ///
    /// - Throws: ``AutomergeError`` from the engine, or ``RecordInputError`` for another field
    ///   that cannot be stored.
    func write(into document: inout Document) throws -> ObjectID {
        let object = try document.putObject(.map, forKey: id)
        try document.put(.timestamp(startTime), forKey: RecordField.startTime.key, in: object)
        if let endTime { try document.put(.timestamp(endTime), forKey: RecordField.endTime.key, in: object) }
        if let tagId { try document.put(.string(tagId), forKey: RecordField.tagId.key, in: object) }
        if let comment { try document.put(.string(comment), forKey: RecordField.comment.key, in: object) }
        let list = try document.putObject(.list, forKey: RecordField.images.key, in: object)
        for (index, name) in images.enumerated() { try document.insert(.string(name), at: index, in: list) }
        for key in otherFields.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let value = otherFields[key] else { continue }
            try ObjectEditor.write(try TypedValue.desired(value, field: key), forKey: key, in: object, document: &document)
        }
        return object
    }

    /// The record stored under `key` of a month document, as a legacy record; `nil` when it is
    /// not a map or has no usable startTime. A text comment reads as its string.
    init?(key: String, in document: Document) {
        guard let object = RecordView.object(key, in: document), let startTime = RecordView.startTime(of: object, in: document) else {
            return nil
        }
        var endTime: Int64?
        switch document.value(of: object, key: RecordField.endTime.key) {
        case .scalar(.timestamp(let milliseconds))?, .scalar(.int(let milliseconds))?: endTime = milliseconds
        default: endTime = nil
        }
        var tagId: String?
        if case .scalar(.string(let text))? = document.value(of: object, key: RecordField.tagId.key) { tagId = RecordID(text).text }
        var comment: String?
        switch document.value(of: object, key: RecordField.comment.key) {
        case .scalar(.string(let text))?: comment = text
        case .object(let text, .text)?: comment = document.text(of: text)
        default: comment = nil
        }
        var others: [String: JSONValue] = [:]
        for name in document.keys(of: object) where !RecordView.knownKeys.contains(where: { $0.utf8.elementsEqual(name.utf8) }) {
            if let value = document.value(of: object, key: name) { others[name] = TypedValue.json(value, in: document) }
        }
        self.init(id: key, startTime: startTime, endTime: endTime, tagId: tagId, comment: comment,
                  images: RecordView.images(of: object, in: document), otherFields: others)
    }

    /// Whether `stored` (read back from a document) holds the same values: ids compared in any
    /// case, other keys compared as the values they store.
    func hasSameValues(as stored: LegacyRecord) -> Bool {
        RecordID(id) == RecordID(stored.id) && startTime == stored.startTime && endTime == stored.endTime
            && tagId.map { RecordID($0) } == stored.tagId.map { RecordID($0) } && comment == stored.comment && images == stored.images
            && StoredFields.same(otherFields, stored.otherFields)
    }
}
