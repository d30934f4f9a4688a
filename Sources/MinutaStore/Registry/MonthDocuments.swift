/// The month documents a store holds, decoded or parked; a month is in one or the other. Every
/// change of a month's entry is noted, so `MonthReplicas.withState` publishes the views that changed
/// (`PublishedViews`) without a hand-written step at each change.
struct MonthDocuments: Sendable {
    private(set) var loaded: [Month: LoadedDocument] = [:]
    private(set) var parked: [Month: ParkedMonth] = [:]
    /// When each month was last loaded or asked for (a counter), for choosing what to park.
    private(set) var lastUse: [Month: UInt64] = [:]
    private var clock: UInt64 = 0
    /// Months whose entry changed since ``takeChangedMonths()``.
    private var changed: Set<Month> = []

    mutating func markUsed(_ month: Month) {
        clock += 1
        lastUse[month] = clock
    }

    /// The decoded document; setting one (or nil) drops the month's parked form.
    subscript(month: Month) -> LoadedDocument? {
        get { loaded[month] }
        set {
            loaded[month] = newValue
            parked[month] = nil
            changed.insert(month)
        }
    }

    /// Forgets a parked month's record files, to be computed again from its bytes when next listed.
    mutating func dropParkedView(of month: Month) {
        guard parked[month]?.view != nil else { return }
        parked[month]?.view = nil
        changed.insert(month)
    }

    mutating func park(_ month: Month, as parkedMonth: ParkedMonth) {
        loaded[month] = nil
        parked[month] = parkedMonth
        changed.insert(month)
    }

    /// How many month documents stay decoded (the ten-year benchmark store: 260 MB resident with all
    /// 120 loaded); the least recently used others are parked (`ParkedMonth`).
    static let loadedLimit = 12

    /// Holds `document` as `month`'s, decoded and just used, and parks the least recently used others
    /// beyond ``loadedLimit`` that hold nothing unsaved (their edits not yet committed are committed at
    /// `commitTime` first; one that then has changes its file lacks stays decoded).
    mutating func install(_ document: LoadedDocument, as month: Month, commitTime: Int64) {
        self[month] = document
        markUsed(month)
        var excess = loaded.count - Self.loadedLimit
        guard excess > 0 else { return }
        let candidates = loaded.keys.sorted { (lastUse[$0] ?? 0) < (lastUse[$1] ?? 0) }
        for other in candidates where excess > 0 && other != month {
            guard var held = loaded[other] else { continue }
            // Edits not committed yet would be lost; so would changes not saved or not applied yet.
            guard held.document.commit(time: commitTime) == nil, let bytes = held.savedBytes, held.identity != nil,
                  held.document.changeCount == held.savedChangeCount, !held.document.hasPendingChanges
            else { continue }
            park(other, as: ParkedMonth(bytes: bytes, identity: held.identity, view: held.view,
                                        hasConflicts: ParkedMonth.hasConflicts(in: held.document), lastReadHeads: held.lastReadHeads))
            excess -= 1
        }
    }

    /// The month's current view: its parked form's or its decoded document's.
    func view(of month: Month) -> MonthView? {
        parked[month]?.view ?? loaded[month]?.view
    }

    /// The months whose entry changed since the last call.
    mutating func takeChangedMonths() -> Set<Month> {
        defer { changed = [] }
        return changed
    }
}

