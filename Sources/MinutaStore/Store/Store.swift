import AutomergeKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A Minuta store: the backing folder's documents as records and tags, safe to use from many
/// threads at once. Changes of one document run one at a time, in its write lane (`writeLanes`), so two
/// writers of it never interleave, while changes of different months run at once; their file I/O runs
/// with the state lock released, and readers of a month whose view is current take no lock but
/// `PublishedViews`' (lock order: docs/ARCHITECTURE.md, "Locks").
///
/// Documents are loaded on first use and kept. Every change is committed as one Automerge change
/// by this process's actor (random, never stored) and written atomically; a document whose
/// content did not change is never rewritten.
public final class Store: Sendable {
    /// The backing folder, absolute.
    public let path: String
    public let timeZone: StoreTimeZone
    public let actor: ActorID
    /// The documents held and what is known of their records. Held only for look-ups, bookkeeping and
    /// renders in memory: reads go through `withPrepared`, changes through `withCheckedOut` and
    /// `withTagsDocument`, which do their decoding and file I/O without it. Use it through `withState`.
    /// Lock order: docs/ARCHITECTURE.md, "Locks" (which also lists the bounded exceptions).
    let state: Mutex<State>
    /// The write lanes every change of documents runs in (`Writing/WriteLanes.swift`), on the caller's
    /// thread: changes of different months run at once, changes of one month one at a time, in order;
    /// a synchronization pass or a merge of conflict copies holds the whole store. Taken before `state`
    /// and never inside it: their file I/O happens with `state` released (`Store+Writing.swift`).
    let writeLanes = WriteLanes()
    /// The threads changes of documents run on, below the CPU priority of reads (`Writing/DocumentWriters.swift`):
    /// four, so saves of four months run at once.
    let writers = DocumentWriters(count: 4, niceness: Store.writerNiceness)
    /// The writers' nice value: 10, or `MINUTAFS_WRITER_NICENESS` (0: writes at the readers' priority).
    static let writerNiceness: Int32 = getenv("MINUTAFS_WRITER_NICENESS").flatMap { Int32(String(cString: $0)) } ?? 10
    /// Month documents held but deleted from the folder (`Registry/DeletedDocuments.swift`), behind a
    /// lock of their own, taken inside `state`'s or alone, never the other way.
    let deletedMonths: DeletedDocuments
    /// The month views readers are answered from without `state` (`Registry/PublishedViews.swift`).
    let publishedViews = PublishedViews()
    /// Errors, rejections and the counts of `.minutafs/status` (`Events/StoreEvents.swift`).
    let events: StoreEvents
    /// The synchronization passes' counts, kept for `.minutafs/status` and written by the passes alone
    /// (`Synchronization/SynchronizationPasses.swift`).
    let synchronizationPasses = SynchronizationPasses()
    /// Document files that do not load (SPEC 5a; `Replica/UnreadableFiles.swift`).
    let unreadable = UnreadableFiles()
    /// The document files: read, merged from disk, written by exchange, conflict copies
    /// (`Replica/DocumentFiles.swift`).
    let documentFiles: DocumentFiles
    /// Seconds since the epoch: the time of changes the store commits, of names it gives, and of its
    /// grace periods (``Store/systemClock`` unless told).
    let clock: @Sendable () -> Int
    /// Where moves between months are journaled; nil: not journaled (see `MoveJournal`).
    let moveJournal: MoveJournal?
    /// Where the records this store moved are remembered across mounts (nil without a state folder).
    let movedRecordMemory: MovedRecordMemory?
    /// Where the store reports what happened to its document files (the mount's log).
    let log: @Sendable (String) -> Void
    /// The backing folder, known by its device and inode when the store was opened (`Backing/BackingFolder.swift`).
    let backingFolder: BackingFolder
    /// Whether records held by two month documents are found (`Store+DuplicateRecords.swift`).
    let indexesRecordHolders: Bool
    /// Whether conflict copies are merged, in memory only, into the documents read (the read-only
    /// commands; `Store+WaitingCopies.swift`).
    let mergesWaitingCopiesInMemory: Bool
    /// The conflict copies such a store found and merged (`Conflicts/WaitingCopyReader.swift`).
    let waitingCopyReader: WaitingCopyReader
    /// The lost edits of deleted records found in each month's history, with the version of the file
    /// (or the heads) they were found in (`Store+Status.swift`, `History/LostEdits.swift`).
    let lostEditCache = Mutex<[Month: (identity: BackingFiles.Identity?, heads: [ChangeHash]?, lines: [String])]>([:])

    struct State: Sendable {
        var tags: LoadedDocument?
        /// `tags.json` as rendered, and the version of the tags document it was rendered from: current
        /// while that is the held document's version.
        var tagsView: (version: DocumentVersion, contents: [UInt8])?
        var months = MonthDocuments()
        /// When records last changed here, and the names that still find records that moved.
        var recentChanges = RecentRecordChanges()
        /// Copies of records not shown because another month shows them (`Store+DuplicateRecords.swift`).
        var hiddenCopies = HiddenCopies()
        /// Which month documents may hold which records (`RecordHolderIndex.swift`).
        var recordHolders = RecordHolderIndex()
        /// Records this store moved to another month, by upper-cased id (`Store+MovedRecordEdits.swift`).
        var movedAway = MovedAwayRecords()
        /// What the mount showed of record fields before merges changed them (`Edits/SupersededValues.swift`).
        /// Cache entries month views rendered under the lock asked for: written once it is released
        /// (`withState`), so no cache file is written under it.
        var pendingCacheWrites: [(entry: MonthViewCache.Entry, key: [UInt8])] = []
        /// The loaded count `PublishedViews` has (`withState` publishes only what changed).
        var publishedLoadedCount = 0
    }

    /// How long a moved record's old name keeps resolving, in seconds.
    static let gracePeriod = 30

    /// The largest record or tags file the store takes: a month of records renders to well under
    /// 1 MiB, and the whole file is parsed in memory.
    public static let maximumJSONFileSize = 16 << 20
    /// The largest image (or other passed-through file) written through the store.
    public static let maximumPassThroughFileSize = 256 << 20

    /// Rendered month views kept between mounts (`Backing/MonthViewCache.swift`); nil without a cache folder.
    let viewCache: MonthViewCache?

    /// Opens the store at `path`. It must hold `tags.automerge` or a `records` folder (a new
    /// empty folder is accepted too); a legacy JSON store is refused with a message saying to migrate.
    ///
    /// With a `stateDirectory` (the mount passes `$XDG_STATE_HOME/minutafs`), record moves between
    /// months are journaled there, and a move a killed process left half done is finished by
    /// ``finishInterruptedMoves()`` (see `MoveJournal`). With a `cacheDirectory` (the mount passes
    /// `$XDG_CACHE_HOME/minutafs`), rendered month views are kept there between mounts.
    ///
    /// With `indexesRecordHolders` false, a record that two month documents hold is shown in both: a
    /// one-shot command that looks at a few months (`minutafs now`) then reads no other document.
    ///
    /// With `mergesWaitingCopiesInMemory` (for commands that only read: `report`, `log`, `now`), each
    /// document is read merged with the conflict copies waiting beside it, in memory, as a mount
    /// would show it; such a store must not write (see `Store+WaitingCopies.swift`).
    public convenience init(
        path: String, timeZone: StoreTimeZone = .utc, actor: ActorID = .random(), stateDirectory: String? = nil,
        cacheDirectory: String? = nil, indexesRecordHolders: Bool = true, mergesWaitingCopiesInMemory: Bool = false,
        clock: @escaping @Sendable () -> Int = Store.systemClock,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(StoreError) {
        try self.init(path: path, timeZone: timeZone, actor: actor, stateDirectory: stateDirectory, cacheDirectory: cacheDirectory,
                      indexesRecordHolders: indexesRecordHolders, mergesWaitingCopiesInMemory: mergesWaitingCopiesInMemory,
                      clock: clock, log: log, faults: nil)
    }

    /// A store whose document writes see the system-call failures, delays and holds `faults` makes
    /// (tests; `Backing/FaultInjection.swift`).
    package init(
        path: String, timeZone: StoreTimeZone = .utc, actor: ActorID = .random(), stateDirectory: String? = nil,
        cacheDirectory: String? = nil, indexesRecordHolders: Bool = true, mergesWaitingCopiesInMemory: Bool = false,
        clock: @escaping @Sendable () -> Int = Store.systemClock,
        log: @escaping @Sendable (String) -> Void = { _ in }, faults: FaultInjection?
    ) throws(StoreError) {
        var absolute = path
        if !absolute.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
            if getcwd(&buffer, buffer.count) != nil {
                absolute = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + path
            }
        }
        while absolute.count > 1 && absolute.hasSuffix("/") { absolute.removeLast() }
        guard let status = BackingFiles.status(absolute), status.isDirectory else { throw .notFound(absolute) }
        let hasTags = BackingFiles.status(absolute + "/tags.automerge") != nil
        if !hasTags && BackingFiles.status(absolute + "/tags.json")?.isRegularFile == true {
            throw .legacyStore(absolute)
        }
        self.path = absolute
        self.indexesRecordHolders = indexesRecordHolders
        self.mergesWaitingCopiesInMemory = mergesWaitingCopiesInMemory
        self.waitingCopyReader = WaitingCopyReader(path: absolute, actor: actor, isMerging: mergesWaitingCopiesInMemory)
        self.timeZone = timeZone
        self.actor = actor
        self.state = Mutex(State())
        self.log = log
        let events = StoreEvents(log: log)
        self.events = events
        self.deletedMonths = DeletedDocuments(events: events)
        self.clock = clock
        let backingFolder = BackingFolder(path: absolute, events: events, faults: faults)
        self.backingFolder = backingFolder
        self.documentFiles = DocumentFiles(folder: backingFolder, actor: actor, unreadable: unreadable, events: events, clock: clock)
        // A state folder that cannot be made leaves moves unjournaled rather than the store unusable.
        self.moveJournal = stateDirectory.flatMap { try? MoveJournal(stateDirectory: $0, storePath: absolute) }
        self.movedRecordMemory = stateDirectory.flatMap { try? MovedRecordMemory(stateDirectory: $0, storePath: absolute) }
        // A cache folder that cannot be made only makes every first read render.
        self.viewCache = cacheDirectory.flatMap {
            try? MonthViewCache(cacheDirectory: $0, timeZone: timeZone.identifier, renderer: MonthViewCache.rendererFingerprint(timeZone: timeZone))
        }
        if let remembered = movedRecordMemory?.load(), !remembered.isEmpty {
            withState { $0.movedAway = MovedAwayRecords(remembered) }
        }
    }

    func absolute(_ relative: String) -> String { path + "/" + relative }

    /// The system's clock, in seconds since the epoch.
    public static let systemClock: @Sendable () -> Int = { Int(time(nil)) }

    /// The store's clock, in seconds since the epoch.
    public func now() -> Int { clock() }

    // MARK: Documents

    /// Loads (once) and returns the month's document; `nil` when it has no document file. Loading one
    /// sets aside the least recently used others beyond `MonthDocuments.loadedLimit` (see `Registry/ParkedMonth.swift`),
    /// unless `parkingOthers` is false.
    func loadMonth(_ month: Month, in state: inout State, parkingOthers: Bool = true) throws(StoreError) -> LoadedDocument? {
        state.months.markUsed(month)
        if let loaded = state.months[month] { return loaded }
        let loaded: LoadedDocument
        if let parked = state.months.parked[month] {
            loaded = try parked.decoded(actor: actor, month: month)
        } else {
            guard let read = try readDocumentToHold(month.documentPath) else { return nil }
            loaded = read
        }
        if parkingOthers {
            install(loaded, as: month, in: &state)
        } else {
            state.months[month] = loaded
        }
        return loaded
    }

    /// The document file at `relative` read as a document to hold: nil when there is none; a file that
    /// does not load is noted (`.minutafs/errors`, status) and thrown, one that loads clears that note.
    /// - Throws: ``StoreError/unloadableDocument(file:reason:)``.
    func readDocumentToHold(_ relative: String) throws(StoreError) -> LoadedDocument? {
        // A file known not to load, unchanged since, is not read (nor decoded) again.
        try documentFiles.requireReadableFile(relative)
        switch documentFiles.readNotingUnreadable(relative) {
        case .absent:
            return waitingCopyReader.merging(into: nil, relative: relative)
        case .unreadable(let reason, _):
            throw .unloadableDocument(file: relative, reason: reason)
        case .loaded(let document, let identity, let bytes):
            return waitingCopyReader.merging(into: LoadedDocument(read: document, identity: identity, bytes: bytes), relative: relative)
        }
    }

    func loadTags(in state: inout State) throws(StoreError) -> LoadedDocument {
        if let loaded = state.tags { return loaded }
        let loaded = try readDocumentToHold("tags.automerge")
            ?? LoadedDocument(document: Document(actor: actor), identity: nil, view: nil, savedChangeCount: -1)
        state.tags = loaded
        return loaded
    }

    // MARK: Listing

    /// The months that have a document or an image folder, in order.
    public func months() throws(StoreError) -> [Month] {
        let records = readable("records")
        guard BackingFiles.status(records)?.isDirectory == true else { return [] }
        var result: [Month] = []
        for yearName in try BackingFiles.listDirectory(records) {
            result += try months(inYear: yearName)
        }
        return Array(Set(result).union(deletedMonths.all)).sorted()
    }

    /// The months of one year folder (`records/2024`) that have a document or an image folder, in order;
    /// empty when the year has no folder.
    public func months(inYear yearName: String) throws(StoreError) -> [Month] {
        let folder = readable("records/" + yearName)
        var result = deletedMonths.months(inYear: yearName)  // still shown
        guard BackingFiles.status(readable("records"))?.isDirectory == true,
              BackingFiles.status(folder)?.isDirectory == true else { return result.sorted() }
        result.formUnion(waitingCopyReader.monthsWithOnlyCopies(inYear: yearName))
        for entry in try BackingFiles.listDirectory(folder) {
            if let month = Month(yearName: yearName, documentName: entry) {
                result.insert(month)
            } else if let month = Month(yearName: yearName, monthName: entry),
                      BackingFiles.status(folder + "/" + entry)?.isDirectory == true {
                result.insert(month)
            }
        }
        return result.sorted()
    }

    /// Whether `months()` includes `month`, without listing every year: a few `lstat` calls.
    public func hasMonth(_ month: Month) -> Bool {
        if isDeletedDocument(month) { return true }
        guard BackingFiles.status(readable("records"))?.isDirectory == true,
              BackingFiles.status(readable("records/" + month.yearName))?.isDirectory == true else { return false }
        return BackingFiles.status(readable(month.documentPath)) != nil
            || BackingFiles.status(readable(month.folderPath))?.isDirectory == true
            || waitingCopyReader.hasCopies(month.documentPath)
    }

    /// The years that have at least one month folder or document, or an empty folder.
    public func years() throws(StoreError) -> [String] {
        let records = readable("records")
        guard BackingFiles.status(records)?.isDirectory == true else { return [] }
        return try BackingFiles.listDirectory(records).filter { name in
            Month.isYearName(name) && BackingFiles.status(records + "/" + name)?.isDirectory == true
        }
    }

    /// The record files of a month, computed once per document state.
    public func recordFiles(in month: Month) throws(StoreError) -> [RecordFile] {
        if let view = publishedViews.view(of: month) { return view.files }
        return try withPrepared(month) { (state: inout State) throws(StoreError) -> [RecordFile] in
            try monthView(month, in: &state)?.files ?? []
        }
    }

    func monthView(_ month: Month, in state: inout State) throws(StoreError) -> MonthView? {
        if let view = state.months.parked[month]?.view { return view }
        if state.months[month] == nil, state.months.parked[month] == nil, let view = cachedMonthView(month, in: &state) { return view }
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

    /// The record file with this name in the month, or a record that moved away from that name
    /// moments ago (so an editor can re-read what it just wrote).
    public func recordFile(named name: String, in month: Month) throws(StoreError) -> RecordFile? {
        if let view = publishedViews.view(of: month), let index = view.indexByName[name] { return view.files[index] }
        return try withPrepared(month) { (state: inout State) throws(StoreError) -> RecordFile? in
            try recordFileLocked(named: name, in: month, state: &state)?.record
        }
    }

    /// `recordFile(named:in:)` for several names at once: from the published view when it shows them
    /// all, else under one hold of the state lock.
    public func recordFiles(named names: [String], in month: Month) throws(StoreError) -> [RecordFile?] {
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

    /// The contents of `tags.json`.
    public func tagsFile() throws(StoreError) -> [UInt8] {
        prepareTags()
        return try withState { (state: inout State) throws(StoreError) -> [UInt8] in
            let loaded = try loadTags(in: &state)
            let version = DocumentVersion(of: loaded.document)
            if let view = state.tagsView, view.version == version { return view.contents }
            let contents = TagView.fileContents(of: loaded.document)
            state.tagsView = (version, contents)
            return contents
        }
    }

    /// A copy of a month's document as the store holds it (for inspection and tests).
    public func document(of month: Month) throws(StoreError) -> Document? {
        try heldDocumentAndFile(of: month)?.document
    }

    /// A copy of the month's document (the tags' for nil) and the version of its file it was read from
    /// or saved as (nil: it holds changes the file lacks), taken together in one hold of the lock.
    func heldDocumentAndFile(of month: Month?) throws(StoreError) -> (document: Document, identity: BackingFiles.Identity?)? {
        guard let month else {
            prepareTags()
            return try withState { (state: inout State) throws(StoreError) -> (document: Document, identity: BackingFiles.Identity?)? in
                let tags = try loadTags(in: &state)
                return (tags.document, tags.savedFileIdentity)
            }
        }
        return try withPrepared(month, needsDocument: true) { (state: inout State) throws(StoreError) -> (document: Document, identity: BackingFiles.Identity?)? in
            guard let loaded = try loadMonth(month, in: &state) else { return nil }
            return (loaded.document, loaded.savedFileIdentity)
        }
    }

    public func tagsDocument() throws(StoreError) -> Document {
        prepareTags()
        return try withState { (state: inout State) throws(StoreError) -> Document in try loadTags(in: &state).document }
    }

    /// Lines describing rejected writes, oldest first (`.minutafs/errors`).
    public var rejectionLog: [String] { events.snapshot.lines }

    /// The refused writes kept for the user: file name to bytes, oldest first.
    public var rejectedFiles: [(name: String, bytes: [UInt8])] { events.snapshot.rejectedFiles }

    /// Keeps the bytes of a refused write under a name made of the time and the file's path.
    func keepRejected(_ bytes: [UInt8], file: String) {
        let c = ISO8601.components(milliseconds: Int64(now()) * 1000)
        let stamp = "\(ISO8601.pad(c.year, 4))\(ISO8601.pad(c.month, 2))\(ISO8601.pad(c.day, 2))-\(ISO8601.pad(c.hour, 2))\(ISO8601.pad(c.minute, 2))\(ISO8601.pad(c.second, 2))"
        events.keepRejected(bytes, file: file, stamp: stamp)
    }

    /// Notes a write the mount refused because it was larger than `limit` bytes (its bytes never
    /// reached the store), for `.minutafs/errors`.
    public func recordOversizedWrite(toPath relative: String, limit: Int) {
        recordRejection(.rejected(file: relative, line: nil, column: nil, reason: .tooLarge(limit: limit)))
    }

    /// Notes a write the store refused, for `.minutafs/errors`, the count in status, and the log (where
    /// `mount -f` and a background mount's log file show it, README "If something goes wrong").
    func recordRejection(_ error: StoreError) {
        events.noteRejection(error)
    }
}
