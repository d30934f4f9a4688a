import AutomergeKit
import Synchronization

/// The replicas of the store's documents: each month's document (decoded, or parked as its bytes and
/// view), the tags document, and what is known of their records (who holds which record, copies not
/// shown, recent changes, moves). It owns the decisions about them: when a month is loaded, parked or
/// decoded again (`MonthReplicas+Prefetch.swift`), how its view is rendered and kept current
/// (``monthView(_:in:)``, keyed by the document's version in `LoadedDocument`), when the view cache is
/// used (`MonthReplicas+ViewCache.swift`), which copy of a record held twice is shown
/// (`MonthReplicas+RecordHolders.swift`), and how a change checks a document out and in
/// (`MonthReplicas+CheckOut.swift`). `Store` routes to it.
///
/// Readers of a month whose view is current take no lock but `PublishedViews`'; everything else takes
/// `state` in short holds (lock order: docs/ARCHITECTURE.md, "Locks").
final class MonthReplicas: Sendable {
    /// The documents held and what is known of their records. Held only for look-ups, bookkeeping and
    /// renders in memory: reads go through `withPrepared`, changes through `withCheckedOut` and
    /// `withTagsDocument`, which do their decoding and file I/O without it. Use it through `withState`.
    let state: Mutex<State>
    /// How many times `state` was taken (`withState`): what tests count to hold the store to few, short holds.
    let stateHolds = Atomic<Int>(0)
    /// The month views readers are answered from without `state` (`Registry/PublishedViews.swift`).
    let publishedViews = PublishedViews()
    /// Rendered month views kept between mounts (`Backing/MonthViewCache.swift`); nil without a cache folder.
    let viewCache: MonthViewCache?
    /// The document files: read, merged from disk, written by exchange (`Replica/DocumentFiles.swift`).
    let documentFiles: DocumentFiles
    /// Document files that do not load (SPEC 5a).
    let unreadable: UnreadableFiles
    /// Conflict copies merged in memory into the documents read (the read-only commands).
    let waitingCopyReader: WaitingCopyReader
    /// The months of the backing folder (`Backing/MonthListing.swift`).
    let listing: MonthListing
    /// The backing folder, absolute.
    let path: String
    let actor: ActorID
    let timeZone: StoreTimeZone
    /// Seconds since the epoch (the store's clock).
    let clock: @Sendable () -> Int
    /// Whether records held by two month documents are found (`MonthReplicas+RecordHolders.swift`).
    let indexesRecordHolders: Bool
    /// Reads document files as documents to hold.
    let reader: DocumentReader
    /// The tags document, behind a lock of its own (`Replica/TagsReplica.swift`).
    let tags: TagsReplica
    /// Each month's lock for rendering its view without `state` (`Registry/MonthRenderLocks.swift`).
    let renderLocks = MonthRenderLocks()
    /// Called with the month each time a view is rendered without `state`, before it is kept: tests
    /// hold a render there to see what goes on meanwhile. Nil in the store.
    let renderObserver: (@Sendable (Month) -> Void)?

    struct State: Sendable {
        var months = MonthDocuments()
        /// When records last changed here, and the names that still find records that moved.
        var recentChanges = RecentRecordChanges()
        /// Copies of records not shown because another month shows them (`MonthReplicas+RecordHolders.swift`).
        var hiddenCopies = HiddenCopies()
        /// Which month documents may hold which records (`RecordHolderIndex.swift`).
        var recordHolders = RecordHolderIndex()
        /// Records this store moved to another month, by upper-cased id (`Writing/RecordMoves.swift`).
        var movedAway = MovedAwayRecords()
        /// Cache entries month views rendered under the lock asked for: written once it is released
        /// (`withState`), so no cache file is written under it.
        var pendingCacheWrites: [(entry: MonthViewCache.Entry, key: [UInt8])] = []
        /// The loaded count `PublishedViews` has (`withState` publishes only what changed).
        var publishedLoadedCount = 0
        /// How many times the holder index changed which months hold which records: a view rendered
        /// without `state` from an earlier index is not kept (``renderWithoutState(_:)``).
        var holderIndexChanges = 0
    }

    init(
        path: String, actor: ActorID, timeZone: StoreTimeZone, clock: @escaping @Sendable () -> Int, documentFiles: DocumentFiles,
        unreadable: UnreadableFiles, waitingCopyReader: WaitingCopyReader, listing: MonthListing, viewCache: MonthViewCache?,
        indexesRecordHolders: Bool, renderObserver: (@Sendable (Month) -> Void)? = nil
    ) {
        self.state = Mutex(State())
        self.path = path
        self.actor = actor
        self.timeZone = timeZone
        self.clock = clock
        self.documentFiles = documentFiles
        self.unreadable = unreadable
        self.waitingCopyReader = waitingCopyReader
        self.listing = listing
        self.viewCache = viewCache
        self.indexesRecordHolders = indexesRecordHolders
        self.renderObserver = renderObserver
        let reader = DocumentReader(documentFiles: documentFiles, waitingCopyReader: waitingCopyReader)
        self.reader = reader
        self.tags = TagsReplica(reader: reader, actor: actor)
    }

    func now() -> Int { clock() }

    func absolute(_ relative: String) -> String { path + "/" + relative }

    /// Runs `body` holding `state`. Before the lock is released, the month views the body changed are
    /// published to the readers that do not take it (`PublishedViews`); after, the view cache entries
    /// the body rendered are written, so no cache file is written under the lock.
    func withState<R: Sendable, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
        stateHolds.add(1, ordering: .relaxed)
        let (result, cacheWrites) = state.withLock { (state: inout State) -> (Result<R, E>, [(entry: MonthViewCache.Entry, key: [UInt8])]) in
            let result: Result<R, E>
            do throws(E) { result = .success(try body(&state)) } catch { result = .failure(error) }
            let changed = state.months.takeChangedMonths()
            let loadedCount = state.months.loadedCount
            if !changed.isEmpty || loadedCount != state.publishedLoadedCount {
                // Readers take this lock for every read: it is not taken when there is nothing new.
                publishedViews.publish(changed.map { ($0, state.months.view(of: $0)) }, loadedDocumentCount: loadedCount)
                state.publishedLoadedCount = loadedCount
            }
            defer { state.pendingCacheWrites = [] }
            return (result, state.pendingCacheWrites)
        }
        for write in cacheWrites { viewCache?.store(write.entry, for: write.key) }
        return try result.get()
    }

    // MARK: Documents

    /// Loads (once) and returns the month's document; `nil` when it has no document file. Loading one
    /// sets aside the least recently used others beyond `MonthDocuments.loadedLimit` (see `Registry/ParkedMonth.swift`),
    /// unless `parkingOthers` is false.
    func loadMonth(_ month: Month, in state: inout State, parkingOthers: Bool = true) throws(StoreError) -> LoadedDocument? {
        state.months.markUsed(month)
        if let loaded = state.months[month] { return loaded }
        let loaded: LoadedDocument
        if let parked = state.months.parked(month) {
            loaded = try parked.decoded(actor: actor, month: month)
        } else {
            guard let read = try reader.readToHold(month.documentPath) else { return nil }
            loaded = read
        }
        if parkingOthers {
            install(loaded, as: month, in: &state)
        } else {
            state.months[month] = loaded
        }
        return loaded
    }

    // MARK: Views

    /// The record files of a month, computed once per document state.
    func recordFiles(in month: Month) throws(StoreError) -> [RecordFile] {
        if let view = publishedViews.view(of: month) { return view.files }
        return try withPrepared(month) { (state: inout State) throws(StoreError) -> [RecordFile] in
            try monthView(month, in: &state)?.files ?? []
        }
    }

    /// The month's view: its parked form's, the cache's, or its document's, rendered when the document
    /// changed since (only the records this store edited, when the earlier view can be reused). Readers
    /// come here through `withPrepared`, whose `prepareToRender` rendered the view without `state`
    /// (``renderWithoutState(_:)``): rendering here, under it, is the bounded exception (docs/ARCHITECTURE.md, "Locks").
    func monthView(_ month: Month, in state: inout State) throws(StoreError) -> MonthView? {
        if let view = state.months.parked(month)?.view { return view }
        if state.months[month] == nil, state.months.parked(month) == nil, let view = cachedMonthView(month, in: &state) { return view }
        guard var loaded = try loadMonth(month, in: &state) else { return nil }
        if let view = loaded.view { return view }
        // Kept current without this lock: by `prepareToRender` (a second old at most) and by every
        // synchronization pass. Built here only when nothing has built it (a command's first render).
        if state.recordHolders.lastUpdate == nil { refreshRecordHolders(in: &state, maximumAge: .seconds(1)) }
        let rendering = rendering(of: loaded, changeTimes: state.recentChanges)
        let holders = holderIndex(in: state)
        let rendered = try rendering.render { (record) throws(StoreError) -> MonthRendering.CopyPlace in
            try rendering.placeCopy(of: record, in: month, holders: holders) { (other: Month) throws(StoreError) -> MonthRendering.OtherDocument in
                try loadMonth(other, in: &state, parkingOthers: false).map { .document($0.document) } ?? .absent
            }
        }
        // Every other month is at hand here (loaded when needed): a record is never `.unknown`.
        guard let rendered else { throw .notFound(month.documentPath) }
        keep(rendered, as: &loaded, of: month, in: &state)
        return rendered.view
    }

    /// A render of `loaded`, a month's document, with the change times `changeTimes` (from `state`):
    /// both copied on write, so taking them costs nothing.
    func rendering(of loaded: LoadedDocument, changeTimes: RecentRecordChanges) -> MonthRendering {
        // The file's time as this store last read or wrote it: no `lstat` under the lock (a file
        // changed since is merged by the next pass, which renders the month again).
        MonthRendering(document: loaded.document, reusableView: loaded.reusableView, fileTime: loaded.identity?.modificationSeconds ?? now(),
                       recentChanges: changeTimes, timeZone: timeZone)
    }

    /// The holder index a render places copies with; nil when none is kept or built.
    func holderIndex(in state: State) -> RecordHolderIndex? {
        indexesRecordHolders && state.recordHolders.lastUpdate != nil ? state.recordHolders : nil
    }

    /// Keeps a view rendered of `loaded` (still the month's document in `state`): the copies it leaves
    /// out are noted, and a view of exactly what the file holds goes to the view cache.
    func keep(_ rendered: MonthRendering.Rendered, as loaded: inout LoadedDocument, of month: Month, in state: inout State) {
        if let hidden = rendered.hidden {
            state.hiddenCopies.forget(in: month)
            for copy in hidden { state.hiddenCopies.hide(copy.id, in: month, shownIn: copy.shownIn) }
        }
        if rendered.showsWholeDocument { storeInViewCache(rendered.view, of: loaded, state: &state) }
        loaded.view = rendered.view
        state.months[month] = loaded
    }

    /// The record a file name shows, also through the grace period after a move.
    func recordFileLocked(named name: String, in month: Month, state: inout State) throws(StoreError) -> (record: RecordFile, month: Month)? {
        if let view = try monthView(month, in: &state), let index = view.indexByName[name] { return (view.files[index], month) }
        if let moved = state.recentChanges.formerName(month.folderPath + "/" + name, now: now()),
           let view = try monthView(moved.month, in: &state), let index = view.indexByID[RecordID(moved.id)] {
            return (view.files[index], moved.month)
        }
        return nil
    }

    /// The record file with this name in the month, or a record that moved away from that name
    /// moments ago: from the published view when it shows it, else under the state lock.
    func recordFile(named name: String, in month: Month) throws(StoreError) -> RecordFile? {
        if let view = publishedViews.view(of: month), let index = view.indexByName[name] { return view.files[index] }
        return try withPrepared(month) { (state: inout State) throws(StoreError) -> RecordFile? in
            try recordFileLocked(named: name, in: month, state: &state)?.record
        }
    }

    /// The record files these names show (nil for a name that shows none): from the published view when
    /// it shows them all, else under one hold of the state lock.
    func recordFiles(named names: [String], in month: Month) throws(StoreError) -> [RecordFile?] {
        if let view = publishedViews.view(of: month) {
            let files = names.map { name in view.indexByName[name].map { view.files[$0] } }
            if !files.contains(where: { $0 == nil }) { return files }
        }
        return try withPrepared(month) { (state: inout State) throws(StoreError) -> [RecordFile?] in
            let view = try monthView(month, in: &state)
            var files: [RecordFile?] = []
            files.reserveCapacity(names.count)
            for name in names {
                if let view, let index = view.indexByName[name] {
                    files.append(view.files[index])
                } else {
                    files.append(try recordFileLocked(named: name, in: month, state: &state)?.record)
                }
            }
            return files
        }
    }

    /// A copy of the month's document (the tags' for nil) and the version of its file it was read from
    /// or saved as (nil: it holds changes the file lacks), taken together in one hold of the lock.
    func heldDocumentAndFile(of month: Month?) throws(StoreError) -> (document: Document, identity: BackingFiles.Identity?)? {
        guard let month else { return try tags.documentAndFile() }
        return try withPrepared(month, needsDocument: true) { (state: inout State) throws(StoreError) -> (document: Document, identity: BackingFiles.Identity?)? in
            guard let loaded = try loadMonth(month, in: &state) else { return nil }
            return (loaded.document, loaded.savedFileIdentity)
        }
    }

    /// The months held (decoded or parked) that were read from or written to a file, with how many
    /// records each shows: what `DeletedDocuments.notice` compares with the folder.
    func heldMonthsWithFiles() -> [(month: Month, records: Int)] {
        withState { state in
            var held: [(month: Month, records: Int)] = []
            for (month, loaded) in state.months.decodedMonths where loaded.identity != nil {
                held.append((month, loaded.view?.files.count ?? loaded.document.keys(of: .root).count))
            }
            for (month, parked) in state.months.parkedMonths where parked.identity != nil {
                held.append((month, parked.view?.files.count ?? 0))
            }
            return held
        }
    }

    /// The months held (decoded or parked) with the version of their file as last read or written: what
    /// a synchronization pass compares with the folder.
    func heldMonthFiles() -> [(month: Month, identity: BackingFiles.Identity?)] {
        withState { state in
            state.months.decodedMonths.map { ($0.key, $0.value.identity) } + state.months.parkedMonths.map { ($0.key, $0.value.identity) }
        }
    }

    /// Whether the document at `relative` (a month's or the tags') is held.
    func holds(_ relative: String) -> Bool {
        if relative == DocumentName.tagsPath { return tags.isHeld }
        return withState { state in Month(documentPath: relative).map { state.months[$0] != nil } ?? false }
    }

    /// Forgets the month's document (its file was removed): the next use loads what is there.
    func forget(_ month: Month) {
        withState { state in state.months[month] = nil }
    }

    /// Whether the month is parked and none of its records has a field with concurrent values (so
    /// `.minutafs/conflicts` need not decode it to find none).
    func isParkedWithoutConflicts(_ month: Month) -> Bool {
        withState { $0.months.parked(month)?.hasConflicts == false }
    }
}
