/// What a report adds time up under: a known tag, no tag, or a tag id tags.json does not know.
public enum ReportCategory: Hashable, Sendable {
    case tag(String)
    case untagged
    case unknownTag

    /// The name a report shows for the category.
    func name(tags: [String: ReportTag]) -> String {
        switch self {
        case .tag(let id): tags[id]?.name ?? id
        case .untagged: "(untagged)"
        case .unknownTag: "(unknown tag)"
        }
    }
}
