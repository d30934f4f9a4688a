/// One document's write lane: changes of the same document run one at a time, in the order they came;
/// changes of different documents run at once (`WriteLanes`).
enum WriteLane: Hashable, Sendable, CustomStringConvertible {
    /// `tags.automerge`.
    case tags
    /// A month's document, its image folder and the files in it.
    case month(Month)

    var description: String {
        switch self {
        case .tags: return DocumentName.tagsPath
        case .month(let month): return month.documentPath
        }
    }
}

/// What a change of the store claims before it runs: the lanes of the documents it changes, or the
/// whole store (a synchronization pass, a merge of conflict copies, a rename between folders), which
/// waits for every lane and holds up every other change while it runs.
enum WriteClaim: Sendable, CustomStringConvertible {
    case lanes(Set<WriteLane>)
    case wholeStore

    static func month(_ month: Month) -> WriteClaim { .lanes([.month(month)]) }
    static let tags = WriteClaim.lanes([.tags])

    /// The lane of the document at `relative` (`tags.automerge`, `records/2024/03.automerge`); the whole
    /// store for any other path.
    static func document(_ relative: String) -> WriteClaim {
        if relative == DocumentName.tagsPath { return .tags }
        if let month = Month(documentPath: relative) { return .month(month) }
        return .wholeStore
    }

    /// Whether a change holding `self` may run a change claiming `other` in place.
    func covers(_ other: WriteClaim) -> Bool {
        switch (self, other) {
        case (.wholeStore, _): return true
        case (.lanes, .wholeStore): return false
        case (.lanes(let held), .lanes(let wanted)): return wanted.isSubset(of: held)
        }
    }

    /// Whether two changes claiming `self` and `other` may run at the same time.
    func isDisjoint(with other: WriteClaim) -> Bool {
        switch (self, other) {
        case (.lanes(let a), .lanes(let b)): return a.isDisjoint(with: b)
        default: return false
        }
    }

    /// Both claims as one.
    func union(_ other: WriteClaim) -> WriteClaim {
        switch (self, other) {
        case (.lanes(let a), .lanes(let b)): return .lanes(a.union(b))
        default: return .wholeStore
        }
    }

    var description: String {
        switch self {
        case .wholeStore: return "the whole store"
        case .lanes(let lanes): return lanes.map(\.description).sorted().joined(separator: ", ")
        }
    }
}
