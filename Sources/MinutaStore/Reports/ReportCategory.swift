/// What a report adds time up under: a known tag, no tag, or a tag id tags.json does not know (each
/// unknown id on its own, so two of them are never one row).
public enum ReportCategory: Hashable, Sendable {
    case tag(String)
    case untagged
    case unknownTag(String)

    /// Known tags in `tags`' order, then untagged time, then unknown tag ids by their bytes: the order
    /// of a report's rows, columns and legend. Only categories in `present` are kept.
    static func ordered(_ present: Set<ReportCategory>, tags: [ReportTag]) -> [ReportCategory] {
        var seen = Set<String>()
        let known = tags.compactMap { tag -> ReportCategory? in
            guard seen.insert(tag.id).inserted, present.contains(.tag(tag.id)) else { return nil }
            return .tag(tag.id)
        }
        let unknown = present.compactMap { category -> String? in
            if case .unknownTag(let id) = category { id } else { nil }
        }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return known + (present.contains(.untagged) ? [.untagged] : []) + unknown.map(ReportCategory.unknownTag)
    }
}
