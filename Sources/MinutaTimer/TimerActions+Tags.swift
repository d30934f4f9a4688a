import Foundation
import MinutaStore

extension TimerActions {
    /// The tag `--tag` names, for a new or changed record (SPEC 10).
    public struct ChosenTag: Sendable {
        public var id: String
        public var name: String
        /// Set when the tag did not exist and was created: its color.
        public var createdColor: String?
        /// `created tag Reading (#4E79A7)` when it was created.
        public var createdLine: String? {
            createdColor.map { "created tag " + TerminalText.escaped(name) + " (" + $0 + ")" }
        }
    }

    /// The tag `query` names (a name in any case, or an id). A name no tag has creates the tag, with the
    /// first unused color of ``TagPalette``; an archived tag is refused unless `allowsArchived`.
    public func chooseTag(_ query: String, allowsArchived: Bool) throws(TimerError) -> ChosenTag {
        let known = try tags()
        do throws(TimerError) {
            let tag = try TagChoice.resolve(query, among: known)
            if tag.isArchived && !allowsArchived { throw TimerError.archivedTag(tag.name, id: tag.id) }
            return ChosenTag(id: tag.id, name: tag.name)
        } catch {
            guard case .unknownTag = error else { throw error }
        }
        let name = query.trimmingCharacters(in: .whitespaces)
        // An id no tag has, or no name at all, is a mistake, not a name for a new tag.
        guard !name.isEmpty, !UUIDText.isValid(name) else { throw TimerError.unknownTag(query, candidates: known.filter { !$0.isArchived }.map(\.listed)) }
        guard let editing = backend as? any TimerEditingBackend else { throw TimerError.storeFailed(file: "tags.json", reason: "this store cannot be changed from here") }
        let bytes = try backend.tagsJSON()
        guard let parsed = try? JSONParser.parse(bytes), case .array(var entries)? = parsed["tags"] else {
            throw TimerError.storeFailed(file: "tags.json", reason: "not a tags list; nothing was created")
        }
        var colors: [String] = []
        for entry in entries { if case .string(let color)? = entry["color"] { colors.append(color) } }
        let color = TagPalette.firstUnused(among: colors)
        entries.append(.object([("name", .string(name)), ("color", .string(color)), ("isArchived", .bool(false))]))
        try editing.writeTags(JSONWriter.pretty(.object([("tags", .array(entries))])))
        // The store gave the tag its id: the newest tag of that name that was not there before.
        let before = Set(known.map { RecordID($0.id) })
        guard let created = try tags().last(where: { $0.name == name && !before.contains(RecordID($0.id)) }) else {
            throw TimerError.storeFailed(file: "tags.json", reason: "the new tag \(TerminalText.quoted(name)) could not be read back")
        }
        return ChosenTag(id: created.id, name: name, createdColor: color)
    }
}
