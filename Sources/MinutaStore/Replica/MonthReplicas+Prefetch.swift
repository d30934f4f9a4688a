import AutomergeKit

/// Loading months without `state`: what a month's first read costs (the view cache's read, the
/// document's decoding, the holder index's look at the folder) is done before the lock is taken, so
/// readers of other months are not held up; the result is installed under the lock only if nobody
/// loaded the month meanwhile. `MonthPrefetcher` calls ``prefetch(_:)`` on another thread for each month
/// of a year folder when it is listed (`grep -r`, `find` and backups read them one after the other).
extension MonthReplicas {
    /// Loads and renders `month` unless it is held already.
    func prefetch(_ month: Month) {
        _ = try? withPrepared(month) { (state: inout State) throws(StoreError) in _ = try monthView(month, in: &state) }
    }

    /// How many times `withPrepared` prepares a month before it lets the read decode or render under the lock.
    static let preparationAttempts = 3

    /// Runs `body`, a read of `months` under `state`, once `prepareToRender` made it need no decode
    /// and no render under the lock. A change of documents can take a month out between the two (its
    /// check-out leaves a parked form without a view when the month was never rendered), or change
    /// what its view was rendered from (the view is then not kept): the months are prepared again.
    /// After `preparationAttempts` the body runs anyway and decodes or renders what it needs itself,
    /// which only changes of the same months at every attempt can cause.
    func withPrepared<R: Sendable>(
        _ months: Month..., needsDocument: Bool = false, _ body: (inout State) throws(StoreError) -> R
    ) throws(StoreError) -> R {
        // The common case first, in one hold: every month held with its view current (decoded, for a
        // change), as a month is after its first read and after each save of this store.
        let ready = try withState { (state: inout State) throws(StoreError) -> R? in
            guard months.allSatisfy({ isReady($0, needsDocument: needsDocument, in: state) }) else { return nil }
            return .some(try body(&state))
        }
        if let ready { return ready }
        var attempt = 1
        // The files of months found neither held nor parked, looked at without the lock.
        var files: [Month: BackingFiles.Status?] = [:]
        while true {
            for month in months { prepareToRender(month, needsDocument: needsDocument) }
            let isLast = attempt >= Self.preparationAttempts
            let known = files
            let outcome = try withState { (state: inout State) throws(StoreError) -> PreparedRead<R> in
                if !isLast {
                    for month in months {
                        switch needsNoDecode(month, needsDocument: needsDocument, in: state, file: known[month]) {
                        case .yes: continue
                        case .no: return .takenOut
                        case .fileUnknown: return .fileUnknown(month)
                        }
                    }
                }
                return .done(try body(&state))
            }
            switch outcome {
            case .done(let result):
                return result
            case .fileUnknown(let month):
                files[month] = .some(BackingFiles.status(listing.readable(month.documentPath)))
            case .takenOut:
                files = [:]
                attempt += 1
            }
        }
    }

    /// Whether `month` is held so that a read needs nothing prepared: decoded, when `needsDocument`;
    /// else with its view current, decoded or parked.
    private func isReady(_ month: Month, needsDocument: Bool, in state: State) -> Bool {
        if let loaded = state.months[month] { return needsDocument || loaded.view != nil }
        return !needsDocument && state.months.parked(month)?.view != nil
    }

    /// Whether reading `month` under the lock needs no document decoded and no view rendered: it is
    /// held decoded with its view (or decoded, when `needsDocument`, or when its view can only be
    /// rendered under the lock: no holder index is built or being built), or parked with its view, or
    /// it has no file to decode (none, or one known not to load). `file` is the month's
    /// file as looked at without the lock (nil: not looked at; then `.fileUnknown`, and the caller
    /// looks and asks again, so no `lstat` runs under the lock).
    private func needsNoDecode(_ month: Month, needsDocument: Bool, in state: State, file: BackingFiles.Status??) -> NoDecode {
        if let loaded = state.months[month] {
            guard !needsDocument, loaded.view == nil else { return .yes }
            // No view: the render without the lock was not kept (something it was rendered from changed
            // meanwhile) or could not be made (a month holding another copy of a record was not decoded).
            // Prepared again, it renders again without the lock, and decodes that month first.
            if !indexesRecordHolders || state.recordHolders.lastUpdate != nil || state.recordHolders.isBeingBuilt { return .no }
            return .yes
        }
        if let parked = state.months.parked(month) { return !needsDocument && parked.view != nil ? .yes : .no }
        guard let file else { return .fileUnknown }
        return file == nil || unreadable.stillUnreadable(month.documentPath, identity: file?.identity) != nil ? .yes : .no
    }

    /// Does without `state` what rendering `month` needs of the disk: after it, `monthView` finds the
    /// month held (decoded, or parked with its view; decoded when `needsDocument`), the holder index at
    /// most a second old, and the other months that may hold the same records decoded, unless a file
    /// does not load or a change of documents took one of them out meanwhile (then `monthView` loads it
    /// itself, under the lock: the one decode a reader can still wait for).
    func prepareToRender(_ month: Month, needsDocument: Bool = false) {
        refreshRecordHoldersWithoutLock()
        prepareMonth(month, needsDocument: needsDocument)
        prepareMonthsSharingRecords(with: month)
        if !needsDocument { renderWithoutState(month) }
    }

    /// Decodes, without `state`, the other month documents a render of `month` looks into because the
    /// holder index says they may hold the same records (a record held twice: SPEC section 4), and
    /// holds them decoded (without setting other months aside: the next load does).
    private func prepareMonthsSharingRecords(with month: Month) {
        guard indexesRecordHolders else { return }
        let others: [(month: Month, parked: ParkedMonth?)] = withState { state in
            guard state.recordHolders.lastUpdate != nil, state.months.view(of: month) == nil else { return [] }
            return state.recordHolders.monthsSharingRecords(with: month).sorted()
                .filter { state.months[$0] == nil }.map { ($0, state.months.parked($0)) }
        }
        for (other, parked) in others {
            let loaded: LoadedDocument?
            if let parked { loaded = try? parked.decoded(actor: actor, month: other) } else { loaded = try? reader.readToHold(other.documentPath) }
            guard let loaded else { continue }  // the render says why, or finds no copy there
            withState { state in
                guard state.months[other] == nil, state.months.parked(other)?.identity == parked?.identity else { return }
                state.months[other] = loaded
            }
        }
    }

    private func prepareMonth(_ month: Month, needsDocument: Bool) {
        enum Need: Sendable {
            case nothing
            case file
            case parked(bytes: [UInt8], identity: BackingFiles.Identity?, lastReadHeads: [ChangeHash])
        }
        let need: Need = withState { state in
            if state.months[month] != nil || (!needsDocument && state.months.view(of: month) != nil) { return .nothing }
            if let parked = state.months.parked(month) {
                return .parked(bytes: parked.bytes, identity: parked.identity, lastReadHeads: parked.lastReadHeads)
            }
            return unreadable.isKnown(month.documentPath) ? .nothing : .file
        }
        switch need {
        case .nothing:
            return
        case .parked(let bytes, let identity, let heads):
            guard var document = try? Document.load(bytes) else { return }  // `monthView` says why
            document.setActor(actor)
            let loaded = LoadedDocument(document: document, identity: identity, view: nil, savedChangeCount: document.changeCount,
                                        savedBytes: bytes, lastReadHeads: heads)
            withState { state in
                guard let parked = state.months.parked(month), needsDocument || parked.view == nil, parked.identity == identity else { return }
                install(loaded, as: month, in: &state)
            }
        case .file:
            if let cached = cachedEntry(of: month) {
                withState { state in
                    guard state.months[month] == nil, state.months.parked(month) == nil else { return }
                    _ = installCachedView(month, cached, in: &state)
                }
                return
            }
            // A file that does not load is noted here; `monthView` says so under the lock.
            guard let loaded = try? reader.readToHold(month.documentPath) else { return }
            withState { state in
                guard state.months[month] == nil, state.months.parked(month) == nil else { return }
                install(loaded, as: month, in: &state)
            }
        }
    }

    /// Holds `loaded` as `month`'s document, setting aside the least recently used others
    /// (``MonthDocuments/install(_:as:commitTime:)``).
    func install(_ loaded: LoadedDocument, as month: Month, in state: inout State) {
        state.months.install(loaded, as: month, commitTime: Int64(now()))
    }

    /// Brings the holder index up to date if it is more than a second old, looking at the folder
    /// without `state` (`refreshRecordHolders` then finds it fresh under the lock).
    func refreshRecordHoldersWithoutLock() {
        guard indexesRecordHolders else { return }
        let known: [Month: BackingFiles.Identity]? = withState { state in
            if state.recordHolders.lastUpdate == nil && state.recordHolders.isBeingBuilt { return nil }
            if let last = state.recordHolders.lastUpdate, ContinuousClock.now - last < .seconds(1) { return nil }
            return state.recordHolders.identities
        }
        guard let known else { return }
        let scan = scanRecordHolders(known: known)
        withState { state in _ = refreshRecordHolders(in: &state, scan: scan) }
    }
}

/// What one attempt of `MonthReplicas.withPrepared` came to.
private enum PreparedRead<R: Sendable>: Sendable {
    case done(R)
    /// A month was taken out between its preparation and the read: prepared again.
    case takenOut
    /// A month is neither held nor parked: its file is looked at without the lock, and the read tried again.
    case fileUnknown(Month)
}

/// Whether a read of a month under `state` can go without decoding a document.
private enum NoDecode {
    case yes, no, fileUnknown
}
