import AutomergeKit

/// Which month documents may hold which records, read from the files without loading them
/// (`Document.rootKeysWritten`), so a record held by two documents is found whichever month is
/// listed first. Each document is read again only when its file changes. It may name a
/// document that deleted the record since, and ids are kept as 64-bit hashes (a ten-year store has
/// 35,000 of them), so two ids may rarely look alike: whoever uses it loads the other document to be
/// sure.
struct RecordHolderIndex: Sendable {
    private struct Entry: Sendable {
        var identity: BackingFiles.Identity
        var ids: Set<UInt64>
    }

    private var entries: [Month: Entry] = [:]
    /// Ids held by one month document (nearly all of them), and those held by more.
    private var soleHolder: [UInt64: Month] = [:]
    private var sharedHolders: [UInt64: Set<Month>] = [:]
    /// When the folder was last compared with the index.
    private(set) var lastUpdate: ContinuousClock.Instant?
    /// A background thread is building the index (`Store.indexRecordHolders`): until it is done,
    /// month views do not wait for it, and the months it finds held twice are reported when it is.
    var isBeingBuilt = false

    /// The version of each month's file the index was read from.
    var identities: [Month: BackingFiles.Identity] { entries.mapValues(\.identity) }

    /// FNV-1a of the upper-cased id's UTF-8: the same on every run.
    static func hash(ofID id: RecordID) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }

    /// The other months whose documents may hold the record with this id.
    func otherHolders(of id: RecordID, besides month: Month) -> [Month] {
        guard let months = sharedHolders[Self.hash(ofID: id)] else { return [] }
        return months.filter { $0 != month }.sorted()
    }

    /// Whether `month`'s document may hold the record with this id (false only when the index has read
    /// that document and the id is not in it).
    func mayHold(_ id: RecordID, in month: Month) -> Bool {
        holders(of: Self.hash(ofID: id)).contains(month)
    }

    /// The other months whose documents may hold a record `month`'s document holds: those a render of
    /// `month` looks into to choose which copy it shows.
    func monthsSharingRecords(with month: Month) -> Set<Month> {
        guard let entry = entries[month] else { return [] }
        var months: Set<Month> = []
        for id in entry.ids {
            if let shared = sharedHolders[id] { months.formUnion(shared) }
        }
        months.remove(month)
        return months
    }

    private func holders(of id: UInt64) -> Set<Month> {
        if let month = soleHolder[id] { return [month] }
        return sharedHolders[id] ?? []
    }

    private mutating func add(_ id: UInt64, _ month: Month) {
        if let sole = soleHolder[id] {
            guard sole != month else { return }
            soleHolder[id] = nil
            sharedHolders[id] = [sole, month]
        } else if sharedHolders[id] != nil {
            sharedHolders[id]?.insert(month)
        } else {
            soleHolder[id] = month
        }
    }

    private mutating func remove(_ id: UInt64, _ month: Month) {
        if soleHolder[id] == month {
            soleHolder[id] = nil
        } else if var months = sharedHolders[id], months.remove(month) != nil {
            if months.count == 1, let last = months.first {
                sharedHolders[id] = nil
                soleHolder[id] = last
            } else {
                sharedHolders[id] = months
            }
        }
    }

    /// Brings the index up to date with the month documents now in the folder (`files`: each
    /// month's document status, nil when it has none; `read` gives a document's record ids) and
    /// returns the months whose shown records may change because of it: every holder of an id that
    /// is, or was, held by two documents.
    mutating func update(
        files: [(month: Month, identity: BackingFiles.Identity?)], reading read: (Month) -> Set<String>
    ) -> Set<Month> {
        lastUpdate = .now
        var affected: Set<Month> = []
        var seen: Set<Month> = []
        for (month, identity) in files {
            seen.insert(month)
            guard let identity else { affected.formUnion(removeEntry(month)); continue }
            if entries[month]?.identity == identity { continue }
            let ids = Set(read(month).map { Self.hash(ofID: RecordID($0)) })
            let before = entries[month]?.ids ?? []
            affected.formUnion(removeEntry(month))
            entries[month] = Entry(identity: identity, ids: ids)
            for id in ids { add(id, month) }
            for id in ids.subtracting(before) where sharedHolders[id] != nil { affected.formUnion(holders(of: id)) }
        }
        for month in Array(entries.keys) where !seen.contains(month) { affected.formUnion(removeEntry(month)) }
        return affected
    }

    /// Drops a month's entry; returns the holders of its ids that were held twice.
    private mutating func removeEntry(_ month: Month) -> Set<Month> {
        guard let entry = entries.removeValue(forKey: month) else { return [] }
        var affected: Set<Month> = []
        for id in entry.ids {
            if let shared = sharedHolders[id] { affected.formUnion(shared) }
            remove(id, month)
        }
        return affected
    }
}
