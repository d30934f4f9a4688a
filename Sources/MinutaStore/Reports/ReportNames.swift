/// The names a report's rows and columns show for its categories, all different from each other and
/// from the words the reports use themselves (SPEC section 9: "every row is distinguishable"):
/// `total`, `month`, `(untagged)`, `(unknown tag ID)` and the empty tag cell of untagged time.
///
/// A tag keeps its name unless another tag in tags.json has the same name or the name is one of those
/// words; then its id follows in brackets (`Work [T1]`, `total [T7]`). Should even that be taken (a tag
/// named `Work [T1]`), a number follows (`#2`, `#3`, …). Tags are named in the order given, so the same
/// categories and tags always get the same names.
public struct ReportNames: Sendable {
    private let names: [ReportCategory: String]

    /// The words the reports use for rows and columns of their own.
    static let reserved: Set<String> = ["total", "month", "(untagged)", ""]

    /// `reserving`: more names no category may take (the `other tags (N)` column of a summary).
    public init(categories: [ReportCategory], tags: [ReportTag], reserving: Set<String> = []) {
        var byID: [String: ReportTag] = [:]
        var counts: [String: Int] = [:]
        for tag in tags where byID[tag.id] == nil {
            byID[tag.id] = tag
            counts[tag.name, default: 0] += 1
        }
        var names: [ReportCategory: String] = [:]
        var used = Self.reserved.union(reserving)
        for category in categories {
            switch category {
            case .tag: continue
            case .untagged: names[category] = "(untagged)"
            case .unknownTag(let id): names[category] = "(unknown tag \(id))"
            }
            if let name = names[category] { used.insert(name) }
        }
        for category in categories {
            guard case .tag(let id) = category else { continue }
            let name = byID[id]?.name ?? id
            var candidate = name
            if counts[name, default: 0] > 1 || used.contains(name) { candidate = Self.withID(name, id) }
            let base = candidate
            var number = 2
            while used.contains(candidate) {
                candidate = base + " #\(number)"
                number += 1
            }
            used.insert(candidate)
            names[category] = candidate
        }
        self.names = names
    }

    private static func withID(_ name: String, _ id: String) -> String {
        name.isEmpty ? "[\(id)]" : "\(name) [\(id)]"
    }

    /// The category's name; a category not given to `init` gets its plain name.
    public func name(of category: ReportCategory) -> String {
        if let name = names[category] { return name }
        switch category {
        case .tag(let id): return id
        case .untagged: return "(untagged)"
        case .unknownTag(let id): return "(unknown tag \(id))"
        }
    }
}
