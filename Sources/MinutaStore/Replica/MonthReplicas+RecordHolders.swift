import AutomergeKit

/// A record held by two month documents (one synced, the other not yet, or a move a killed process
/// left half done) is shown once (SPEC section 4): in the month of its start (store time zone), when
/// that month's document holds it too. The other copy is listed in `.minutafs/status`.
extension MonthReplicas {
    /// Looks at the folder for ``refreshRecordHolders(in:maximumAge:scan:)``, given the identities the
    /// index `known` (so it takes no lock itself): run without the store's lock it reads the changed
    /// documents' ids (all of them at the first look after a mount, a tenth of loading each) while
    /// readers go on; under the lock it is the refresh's own look (`Registry/RecordHolderScan.swift`).
    func scanRecordHolders(known: [Month: BackingFiles.Identity]) -> RecordHolderScan {
        RecordHolderScan(folder: path, months: (try? listing.months()) ?? [], known: known)
    }

    /// A look at the folder for the holder index, taken without the lock; nil while no index is built
    /// (the first month view or `indexRecordHolders` builds it; a synchronization pass keeps it current).
    func scanRecordHoldersIfBuilt() -> RecordHolderScan? {
        let known = withState { $0.recordHolders.lastUpdate == nil ? nil : $0.recordHolders.identities }
        return known.map { scanRecordHolders(known: $0) }
    }

    /// Brings a built holder index up to date with `scan` (or its own look, without one); returns the
    /// months whose shown records may change with it.
    func refreshBuiltRecordHolders(scan: RecordHolderScan?) -> [Month] {
        withState { state in
            state.recordHolders.lastUpdate == nil ? [] : Array(refreshRecordHolders(in: &state, scan: scan))
        }
    }

    /// The copies of records held twice that the views leave out, by document.
    var hiddenCopies: [Store.HiddenCopy] { withState { $0.hiddenCopies.all } }

    /// Marks the holder index as being built on another thread (``indexRecordHolders()``).
    func willIndexRecordHolders() {
        withState { $0.recordHolders.isBeingBuilt = true }
    }

    /// Builds the holder index if no month view has yet, reading the documents without the lock.
    /// Returns the documents (relative paths) of the months whose shown records it changes.
    func indexRecordHolders() -> [String] {
        guard withState({ $0.recordHolders.lastUpdate == nil }) else { return [] }
        let scan = scanRecordHolders(known: withState { $0.recordHolders.identities })
        return withState { state in
            defer { state.recordHolders.isBeingBuilt = false }
            guard state.recordHolders.lastUpdate == nil else { return [] }
            return refreshRecordHolders(in: &state, scan: scan).sorted().map(\.documentPath)
        }
    }

    /// `records` of `month`'s document without the copies shown elsewhere:
    /// - a copy whose start falls in another month whose document holds the record too (a move
    ///   synced in one document and not yet in the other): shown there;
    /// - a copy whose start falls in this month while another month's document holds a copy whose
    ///   start falls in that month (another device's move, half delivered): the copy with the later
    ///   last change is shown (`Document.lastChangeTime(of:comparable:)`, seconds and milliseconds
    ///   told apart as the history does), on a tie the one in the later month.
    ///   Every device and every order of listing picks the same copy.
    func hidingCopiesFiledElsewhere(
        _ records: [(id: String, object: ObjectID, startTime: Int64?)], in month: Month, document: Document,
        state: inout State
    ) throws(StoreError) -> [(id: String, object: ObjectID, startTime: Int64?)] {
        state.hiddenCopies.forget(in: month)
        // Kept current without this lock: by `prepareToRender` (a second old at most) and by every
        // synchronization pass. Built here only when nothing has built it (a command's first render).
        if state.recordHolders.lastUpdate == nil { refreshRecordHolders(in: &state, maximumAge: .seconds(1)) }
        var kept: [(id: String, object: ObjectID, startTime: Int64?)] = []
        kept.reserveCapacity(records.count)
        for record in records {
            if let shownIn = try monthShowingOtherCopy(of: record, in: month, document: document, state: &state) {
                state.hiddenCopies.hide(record.id, in: month, shownIn: shownIn)
            } else {
                kept.append(record)
            }
        }
        return kept
    }

    /// The month that shows another copy of `record` instead of this one, or nil when this one is shown.
    private func monthShowingOtherCopy(
        of record: (id: String, object: ObjectID, startTime: Int64?), in month: Month, document: Document,
        state: inout State
    ) throws(StoreError) -> Month? {
        guard let start = record.startTime, let home = timeZone.month(ofMilliseconds: start) else { return nil }
        let id = RecordID(record.id)
        if home != month {
            // The index has read the home month's file and the record is not in it: nothing to decode.
            if indexesRecordHolders, state.recordHolders.lastUpdate != nil, !state.recordHolders.mayHold(id, in: home) { return nil }
            guard let other = try loadMonth(home, in: &state, parkingOthers: false),
                  id.key(among: other.document.keys(of: .root)) != nil else { return nil }
            return home
        }
        for otherMonth in state.recordHolders.otherHolders(of: id, besides: month) {
            guard let other = try loadMonth(otherMonth, in: &state, parkingOthers: false),
                  let key = id.key(among: other.document.keys(of: .root)),
                  let object = RecordView.object(key, in: other.document),
                  let otherStart = RecordView.startTime(of: object, in: other.document),
                  timeZone.month(ofMilliseconds: otherStart) == otherMonth else { continue }
            let ours = document.lastChangeTime(of: record.object, comparable: EffectiveTimes.milliseconds(ofChangeTime:)) ?? .min
            let theirs = other.document.lastChangeTime(of: object, comparable: EffectiveTimes.milliseconds(ofChangeTime:)) ?? .min
            if theirs > ours || (theirs == ours && otherMonth > month) { return otherMonth }
        }
        return nil
    }

    /// Reads again the record ids of month documents whose files changed since the last call, and
    /// drops the views of months whose shown records may change with them. Returns those months.
    /// With `maximumAge`, does nothing if the folder was compared that recently: rendering a month
    /// then costs no look at the others, and what changed meanwhile is found by the next
    /// synchronization pass (`synchronizeDocuments`, which always looks).
    /// `scan` is a look at the folder taken without the lock (``scanRecordHolders(known:)``); without
    /// one, the refresh looks itself. A file changed since a scan is found by the next refresh.
    @discardableResult
    func refreshRecordHolders(in state: inout State, maximumAge: Duration? = nil, scan: RecordHolderScan? = nil) -> Set<Month> {
        guard indexesRecordHolders else { return [] }
        if let maximumAge {
            if state.recordHolders.lastUpdate == nil && state.recordHolders.isBeingBuilt { return [] }
            if let last = state.recordHolders.lastUpdate, ContinuousClock.now - last < maximumAge { return [] }
        }
        let scan = scan ?? scanRecordHolders(known: state.recordHolders.identities)
        let affected = state.recordHolders.update(files: scan.files) { month in
            scan.ids[month] ?? RecordHolderScan.recordIDsWritten(in: month, folder: path)
        }
        for month in affected {
            state.months.dropParkedView(of: month)
            if var loaded = state.months[month] {
                loaded.view = nil
                state.months[month] = loaded
            }
        }
        return affected
    }
}
