import AutomergeKit

/// A record held by two month documents (one synced, the other not yet, or a move a killed process
/// left half done) is shown once (SPEC section 4): in the month of its start (store time zone), when
/// that month's document holds it too. The other copy is listed in `.minutafs/status`.
extension Store {
    /// A month document's record ids as read from a version of its file.
    struct ScannedDocument: Sendable {
        var identity: FileSystem.Identity
        var ids: Set<String>
    }

    /// Reads, without the store's lock, the record ids of the month documents whose files the holder
    /// index has not read in their present version (all of them at the first pass after a mount: a
    /// tenth of loading each), for ``refreshRecordHolders(in:maximumAge:scanned:)`` to take.
    func scanRecordHolders() -> [Month: ScannedDocument] {
        let known = state.withLock { $0.recordHolders.identities }
        var scanned: [Month: ScannedDocument] = [:]
        for month in (try? months()) ?? [] {
            guard let status = FileSystem.status(absolute(month.documentPath)), status.isRegularFile,
                  known[month] != status.identity else { continue }
            scanned[month] = ScannedDocument(identity: status.identity, ids: recordIDsWritten(in: month))
        }
        return scanned
    }

    /// Says that ``indexRecordHolders()`` is about to run on another thread: month views rendered
    /// meanwhile do not build the index themselves (see `RecordHolderIndex.isBeingBuilt`).
    public func willIndexRecordHolders() {
        state.withLock { $0.recordHolders.isBeingBuilt = true }
    }

    /// Builds the holder index if no month view has yet, reading the documents without the store's
    /// lock (the mount runs it in the background once it serves). Returns the documents (relative
    /// paths) of the months whose shown records it changes: records found held twice in months
    /// rendered before it was done.
    @discardableResult
    public func indexRecordHolders() -> [String] {
        guard state.withLock({ $0.recordHolders.lastUpdate == nil }) else { return [] }
        let scanned = scanRecordHolders()
        return state.withLock { state in
            defer { state.recordHolders.isBeingBuilt = false }
            guard state.recordHolders.lastUpdate == nil else { return [] }
            return refreshRecordHolders(in: &state, scanned: scanned).sorted().map(\.documentPath)
        }
    }

    private func recordIDsWritten(in month: Month) -> Set<String> {
        guard let bytes = try? FileSystem.read(absolute(month.documentPath)),
              let keys = try? Document.rootKeysWritten(inFile: bytes) else { return [] }
        return keys
    }

    /// A copy of a record that is not shown because the month of its start holds the record too.
    public struct HiddenCopy: Sendable, Equatable {
        public var id: String
        /// Where the copy that is not shown is.
        public var document: String
        /// The folder the record is shown in.
        public var shownIn: String
    }

    /// The records held twice whose second copy is not shown, by document.
    public var hiddenCopies: [HiddenCopy] {
        state.withLock { state in state.hiddenCopies.values.sorted { ($0.document, $0.id) < ($1.document, $1.id) } }
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
        state.forgetHiddenCopies(in: month)
        refreshRecordHolders(in: &state, maximumAge: .seconds(1))
        var kept: [(id: String, object: ObjectID, startTime: Int64?)] = []
        kept.reserveCapacity(records.count)
        for record in records {
            if let shownIn = try monthShowingOtherCopy(of: record, in: month, document: document, state: &state) {
                state.hiddenCopies[month.documentPath + " " + record.id.uppercased()] =
                    HiddenCopy(id: record.id, document: month.documentPath, shownIn: shownIn.folderPath)
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
        let id = record.id.uppercased()
        if home != month {
            guard let other = try loadMonth(home, in: &state, parkingOthers: false),
                  other.document.keys(of: .root).contains(where: { $0.uppercased() == id }) else { return nil }
            return home
        }
        for otherMonth in state.recordHolders.otherHolders(of: id, besides: month) {
            guard let other = try loadMonth(otherMonth, in: &state, parkingOthers: false),
                  let key = other.document.keys(of: .root).first(where: { $0.uppercased() == id }),
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
    /// `scanned` gives ids already read (``scanRecordHolders()``, without the lock) for files still as
    /// they were then.
    @discardableResult
    func refreshRecordHolders(
        in state: inout State, maximumAge: Duration? = nil, scanned: [Month: ScannedDocument] = [:]
    ) -> Set<Month> {
        if let maximumAge {
            if state.recordHolders.lastUpdate == nil && state.recordHolders.isBeingBuilt { return [] }
            if let last = state.recordHolders.lastUpdate, ContinuousClock.now - last < maximumAge { return [] }
        }
        let months = (try? self.months()) ?? []
        let files = months.map { month -> (month: Month, identity: FileSystem.Identity?) in
            let status = FileSystem.status(absolute(month.documentPath))
            return (month, status?.isRegularFile == true ? status?.identity : nil)
        }
        let affected = state.recordHolders.update(files: files) { month, identity in
            if let scan = scanned[month], scan.identity == identity { return scan.ids }
            return recordIDsWritten(in: month)
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

extension Store.State {
    /// Forgets the copies `month`'s view left out, before the view is made again.
    mutating func forgetHiddenCopies(in month: Month) {
        for key in hiddenCopies.keys where key.hasPrefix(month.documentPath + " ") { hiddenCopies[key] = nil }
    }
}
