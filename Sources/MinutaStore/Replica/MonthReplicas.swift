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
    }

    init(
        path: String, actor: ActorID, timeZone: StoreTimeZone, clock: @escaping @Sendable () -> Int, documentFiles: DocumentFiles,
        unreadable: UnreadableFiles, waitingCopyReader: WaitingCopyReader, listing: MonthListing, viewCache: MonthViewCache?,
        indexesRecordHolders: Bool
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
    /// changed since (only the records this store edited, when the earlier view can be reused).
    func monthView(_ month: Month, in state: inout State) throws(StoreError) -> MonthView? {
        if let view = state.months.parked(month)?.view { return view }
        if state.months[month] == nil, state.months.parked(month) == nil, let view = cachedMonthView(month, in: &state) { return view }
        guard var loaded = try loadMonth(month, in: &state) else { return nil }
        if let view = loaded.view { return view }
        let document = loaded.document
        // The file's time as this store last read or wrote it: no `lstat` under the lock (a file
        // changed since is merged by the next pass, which renders the month again).
        let fileTime = loaded.identity?.modificationSeconds ?? now()
        if let reusable = loaded.reusableView,
           let view = reusable.view.edited(changedRecords: reusable.changedRecords, in: document, fileTime: fileTime, recentChanges: state.recentChanges) {
            loaded.view = view
            state.months[month] = loaded
            return view
        }
        var records: [(id: String, object: ObjectID, startTime: Int64?)] = []
        for key in document.keys(of: .root) {
            guard let object = RecordView.object(key, in: document) else { continue }
            records.append((key, object, RecordView.startTime(of: object, in: document)))
        }
        let renderedCount = records.count
        records = try hidingCopiesFiledElsewhere(records, in: month, document: document, state: &state)
        let names = RecordNaming.names(for: records.map { ($0.id, $0.startTime) }, timeZone: timeZone)
        var files: [(file: RecordFile, startTime: Int64?)] = []
        files.reserveCapacity(records.count)
        let reusable = loaded.reusableView
        for (record, name) in zip(records, names) {
            let key = RecordID(record.id)
            let contents: [UInt8]
            if let reusable, !reusable.changedRecords.contains(key), let index = reusable.view.indexByID[key],
               reusable.view.files[index].id == record.id {
                contents = reusable.view.files[index].contents
            } else {
                contents = JSONWriter.pretty(RecordView.json(id: record.id, record: record.object, in: document))
            }
            let changed = state.recentChanges.changeTime(of: key) ?? fileTime
            files.append((RecordFile(name: name, id: record.id, contents: contents, modificationTime: changed), record.startTime))
        }
        files.sort { $0.file.name.utf8.lexicographicallyPrecedes($1.file.name.utf8) }
        let view = MonthView(files: files.map(\.file), startTimes: files.map(\.startTime))
        // A view of exactly what the file holds, with no copy left out, is kept for the next mount.
        if records.count == renderedCount, reusable == nil { storeInViewCache(view, of: loaded, state: &state) }
        loaded.view = view
        state.months[month] = loaded
        return view
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
