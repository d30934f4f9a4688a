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
        if !affected.isEmpty { state.holderIndexChanges += 1 }
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
