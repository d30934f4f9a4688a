import AutomergeKit

/// Which month documents may hold which records, read from the files without loading them
/// (`Document.rootKeysWritten`), so a record held by two documents is found whichever month is
/// listed first (issue 17). Each document is read again only when its file changes. It may name a
/// document that deleted the record since: whoever uses it loads that document to be sure.
struct RecordHolderIndex: Sendable {
    private struct Entry: Sendable {
        var identity: FileSystem.Identity
        /// Upper-cased record ids.
        var ids: Set<String>
    }

    private var entries: [Month: Entry] = [:]
    /// When the folder was last compared with the index.
    private(set) var lastUpdate: ContinuousClock.Instant?
    /// Upper-cased record id to the months whose documents may hold it.
    private var holders: [String: Set<Month>] = [:]

    /// The other months whose documents may hold the record with this (upper-cased) id.
    func otherHolders(of id: String, besides month: Month) -> [Month] {
        guard let months = holders[id], months.count > 1 else { return [] }
        return months.filter { $0 != month }.sorted()
    }

    /// Brings the index up to date with the month documents now in the folder (`files`: each
    /// month's document status, nil when it has none) and returns the months whose shown records
    /// may change because of it: every holder of an id that is, or was, held by two documents.
    mutating func update(
        files: [(month: Month, identity: FileSystem.Identity?)], reading read: (Month) -> Set<String>
    ) -> Set<Month> {
        lastUpdate = .now
        var affected: Set<Month> = []
        var seen: Set<Month> = []
        for (month, identity) in files {
            seen.insert(month)
            guard let identity else { affected.formUnion(remove(month)); continue }
            if entries[month]?.identity == identity { continue }
            let ids = read(month)
            let before = entries[month]?.ids ?? []
            affected.formUnion(remove(month))
            entries[month] = Entry(identity: identity, ids: ids)
            for id in ids { holders[id, default: []].insert(month) }
            for id in ids.symmetricDifference(before) where (holders[id]?.count ?? 0) > 1 {
                affected.formUnion(holders[id] ?? [])
            }
        }
        for month in Array(entries.keys) where !seen.contains(month) { affected.formUnion(remove(month)) }
        return affected
    }

    /// Drops a month's entry; returns the holders of its ids that were held twice.
    private mutating func remove(_ month: Month) -> Set<Month> {
        guard let entry = entries.removeValue(forKey: month) else { return [] }
        var affected: Set<Month> = []
        for id in entry.ids {
            guard var months = holders[id] else { continue }
            if months.count > 1 { affected.formUnion(months) }
            months.remove(month)
            holders[id] = months.isEmpty ? nil : months
        }
        return affected
    }
}
