import MinutaStore

/// A tag as `tags.json` shows it, as much as the timer commands need.
public struct TagSummary: Equatable, Sendable {
    public var id: String
    public var name: String
    public var isArchived: Bool

    public init(id: String, name: String, isArchived: Bool) {
        self.id = id
        self.name = name
        self.isArchived = isArchived
    }

    /// The tags of a `tags.json` file (`{"tags": [...]}`); entries without an id are left out.
    public static func tags(inTagsJSON bytes: [UInt8]) -> [TagSummary] {
        guard let value = try? JSONParser.parse(bytes), case .array(let list)? = value["tags"] else { return [] }
        return list.compactMap { entry in
            guard case .string(let id)? = entry["id"] else { return nil }
            var name = ""
            if case .string(let text)? = entry["name"] { name = text }
            var archived = false
            if case .bool(let flag)? = entry["isArchived"] { archived = flag }
            return TagSummary(id: id, name: name, isArchived: archived)
        }
    }

    /// `Work (7993C5A5-…)`, for lists of candidates.
    var listed: String {
        TerminalText.quoted(name) + " (" + id + (isArchived ? ", archived" : "") + ")"
    }
}

/// Which tag `--tag` means (SPEC 10): an id in any case; else a name compared without regard to case,
/// an unarchived tag before archived ones. An unknown or ambiguous name is an error that lists the
/// candidates.
public enum TagChoice {
    public static func resolve(_ query: String, among tags: [TagSummary]) throws(TimerError) -> TagSummary {
        if let byID = tags.first(where: { RecordID($0.id) == RecordID(query) && UUIDText.isValid(query) }) { return byID }
        let folded = query.lowercased()
        let named = tags.filter { $0.name.lowercased() == folded }
        let active = named.filter { !$0.isArchived }
        if active.count == 1 { return active[0] }
        if active.count > 1 { throw .ambiguousTag(query, candidates: active.map(\.listed)) }
        if named.count == 1 { return named[0] }
        if named.count > 1 { throw .ambiguousTag(query, candidates: named.map(\.listed)) }
        let similar = tags.filter { !$0.isArchived && ($0.name.lowercased().contains(folded) || folded.contains($0.name.lowercased())) }
        let candidates = (similar.isEmpty ? tags.filter { !$0.isArchived } : similar).map(\.listed)
        throw .unknownTag(query, candidates: candidates)
    }
}
