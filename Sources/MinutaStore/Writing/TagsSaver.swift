import AutomergeKit

/// Saves of `tags.json` (SPEC section 3): tags keyed by id; a tag without id is created with the app's
/// defaults, a tag left out is deleted unless a merge brought it in after the writer read the list
/// (SPEC 5b). Runs in the tags' write lane `Store` claimed; the document changes only through
/// `MonthReplicas.withTagsDocument`.
struct TagsSaver: Sendable {
    let replicas: MonthReplicas
    let documentFiles: DocumentFiles
    let events: StoreEvents

    static let file = "tags.json"

    /// Applies a written `tags.json` to the tags document and saves it with `state` released; whether
    /// the document changed.
    func writeTags(_ bytes: [UInt8], reading: WriterRead) throws(StoreError) -> Bool {
        let entries = try Self.parse(bytes)
        let now = replicas.now()
        let saved = try replicas.withTagsDocument(change: { (loaded: inout LoadedDocument) throws(StoreError) -> (changed: Bool, conflictLines: [String]) in
            var document = loaded.document
            let existing = TagView.tags(in: document)
            var kept = Set<RecordID>()
            var conflictLines: [String] = []
            for (position, entry) in entries.enumerated() {
                conflictLines += try applyTag(entry, at: position, existing: existing, to: &document, kept: &kept, reading: reading, now: now)
            }
            // A tag another device added, merged after the writer read tags.json, is not in its list: kept.
            for tag in existing where !kept.contains(RecordID(tag.id)) {
                let omission = documentFiles.omissionOfTag(tag.id, reading: reading, now: now)
                if let line = omission.conflictLine { conflictLines.append(line) }
                guard omission.deletes else { continue }
                // Fails only when the key is already gone: then there is nothing to delete.
                do { try document.delete(forKey: tag.id) } catch {}
            }
            loaded.document = document
            return (try documentFiles.save(&loaded, to: DocumentName.tagsPath), conflictLines)
        })
        events.noteConflicts(saved.conflictLines)
        return saved.changed
    }

    /// The tag entries of a written `tags.json`: exactly `{"tags": [ ... ]}`.
    /// - Throws: ``StoreError/rejected(file:line:column:reason:)`` naming `tags.json`.
    static func parse(_ bytes: [UInt8]) throws(StoreError) -> [JSONValue] {
        let parsed: JSONValue
        do { parsed = try JSONParser.parse(bytes) } catch {
            throw .rejected(file: file, line: error.line, column: error.column, reason: .syntax(error))
        }
        guard case .array(let entries)? = parsed["tags"], case .object(let top) = parsed, top.count == 1 else {
            throw .rejected(file: file, line: 1, column: 1, reason: .notAnObject(expected: "{\"tags\": [ ... ]}"))
        }
        return entries
    }

    /// Applies tag `entry` (the `position`th of the written list) to `document`: the tag its id names
    /// (created with the app's defaults when new, or without an id) gets the written fields. Returns the
    /// `.minutafs/conflicts` lines for merged values the write replaced; adds the tag's id to `kept`.
    private func applyTag(
        _ entry: JSONValue, at position: Int, existing: [TagView.Tag], to document: inout Document, kept: inout Set<RecordID>,
        reading: WriterRead, now: Int
    ) throws(StoreError) -> [String] {
        let file = Self.file
        guard case .object(let members) = entry else {
            throw .rejected(file: file, line: nil, column: nil, reason: .notAnObject(expected: "tag \(position + 1) to be an object"))
        }
        var id: String
        if let idValue = entry["id"] {
            guard case .string(let text) = idValue, UUIDText.isValid(text) else {
                throw .rejected(file: file, line: nil, column: nil, reason: .invalidID("\(idValue)"))
            }
            id = existing.first { RecordID($0.id) == RecordID(text) }?.id ?? RecordID(text).text
        } else {
            id = RecordID.random().text
        }
        guard kept.insert(RecordID(id)).inserted else {
            throw .rejected(file: file, line: nil, column: nil, reason: .duplicateID(id))
        }
        let object: ObjectID
        var isNew = false
        var currentView: [(key: String, value: JSONValue)] = []
        var fields = members.filter { $0.key != "id" }
        var conflictLines: [String] = []
        if case .object(let tagObject, .map)? = document.value(of: .root, key: id), let tag = existing.first(where: { $0.id == id }) {
            object = tagObject
            if case .object(let view) = TagView.json(tag, in: document) { currentView = view.filter { $0.key != "id" } }
        } else {
            do { object = try document.putObject(.map, forKey: id) } catch {
                throw .rejected(file: file, line: nil, column: nil, reason: .invalidID(id))
            }
            isNew = true
            // New tags get the app's defaults for what the user left out; a name they must be given.
            if entry["createdAt"] == nil { fields.append(("createdAt", .integer(Int64(now) * 1000))) }
            if entry["isArchived"] == nil { fields.append(("isArchived", .bool(false))) }
            if entry["color"] == nil { fields.append(("color", .string("#4A90D9"))) }
        }
        if !currentView.isEmpty {
            // What the writer read: tag fields it saved as read before a merge it could not see stay merged (SPEC 5b).
            let reconciled = documentFiles.reconcileWithMerges(fields, current: currentView, recordID: id, file: "tags.json " + id,
                                                               reading: reading, now: now)
            fields = reconciled.fields
            conflictLines = reconciled.conflictLines
        }
        var editor = ObjectEditor(document: document, object: object, rules: FieldRule.tag)
        do { try editor.apply(fields, currentView: currentView, isNew: isNew) } catch {
            throw .rejected(file: file, line: nil, column: nil, reason: error)
        }
        document = editor.document
        return conflictLines
    }
}
