/// The month documents a store holds, each a `MonthReplica`: decoded or parked, never both. Every
/// change of a month's entry is noted, so `MonthReplicas.withState` publishes the views that changed
/// (`PublishedViews`) without a hand-written step at each change.
struct MonthDocuments: Sendable {
    private(set) var replicas: [Month: MonthReplica] = [:]
    /// How many months are held decoded.
    private(set) var loadedCount = 0
    /// When each month was last loaded or asked for (a counter), for choosing what to park.
    private(set) var lastUse: [Month: UInt64] = [:]
    private var clock: UInt64 = 0
    /// Months whose entry changed since ``takeChangedMonths()``.
    private var changed: Set<Month> = []

    /// The months held decoded (a copy, for going through them).
    var decodedMonths: [Month: LoadedDocument] { replicas.compactMapValues(\.decoded) }
    /// The months parked (a copy, for going through them).
    var parkedMonths: [Month: ParkedMonth] { replicas.compactMapValues(\.parked) }

    /// The month's parked form, if it is parked.
    func parked(_ month: Month) -> ParkedMonth? { replicas[month]?.parked }

    mutating func markUsed(_ month: Month) {
        clock += 1
        lastUse[month] = clock
    }

    /// The decoded document; setting one (or nil) drops the month's parked form.
    subscript(month: Month) -> LoadedDocument? {
        get { replicas[month]?.decoded }
        set { replace(month, with: newValue.map(MonthReplica.decoded)) }
    }

    /// Forgets a parked month's record files, to be computed again from its bytes when next listed.
    mutating func dropParkedView(of month: Month) {
        guard var parked = parked(month), parked.view != nil else { return }
        parked.view = nil
        replace(month, with: .parked(parked))
    }

    mutating func park(_ month: Month, as parkedMonth: ParkedMonth) {
        replace(month, with: .parked(parkedMonth))
    }

    private mutating func replace(_ month: Month, with replica: MonthReplica?) {
        if replicas[month]?.decoded != nil { loadedCount -= 1 }
        if replica?.decoded != nil { loadedCount += 1 }
        replicas[month] = replica
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
        var excess = loadedCount - Self.loadedLimit
        guard excess > 0 else { return }
        let candidates = replicas.compactMap { $0.value.decoded == nil ? nil : $0.key }.sorted { (lastUse[$0] ?? 0) < (lastUse[$1] ?? 0) }
        for other in candidates where excess > 0 && other != month {
            guard var held = self[other] else { continue }
            // Edits not committed yet would be lost; so would changes not saved or not applied yet.
            guard let parkedForm = MonthReplica.parkedForm(of: &held, commitTime: commitTime) else { continue }
            park(other, as: parkedForm)
            excess -= 1
        }
    }

    /// The month's current view: its parked form's or its decoded document's.
    func view(of month: Month) -> MonthView? {
        replicas[month]?.view
    }

    /// The months whose entry changed since the last call.
    mutating func takeChangedMonths() -> Set<Month> {
        defer { changed = [] }
        return changed
    }
}

