import AutomergeKit
import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A Minuta store: the backing folder's documents as records and tags, safe to use from many
/// threads at once. A facade: each method claims the write lanes a change needs and routes to the
/// owner of the decision (`MonthReplicas` for the held documents, the savers in `Writing/`, the
/// synchronizer, …; docs/ARCHITECTURE.md, "Where to change what (store)"). Changes of one document run
/// one at a time, in its write lane (`writeLanes`), so two writers of it never interleave, while changes
/// of different months run at once; their file I/O runs with the replicas' state lock released, and
/// readers of a month whose view is current take no lock but `PublishedViews`' (lock order:
/// docs/ARCHITECTURE.md, "Locks").
///
/// Documents are loaded on first use and kept. Every change is committed as one Automerge change
/// by this process's actor (random, never stored) and written atomically; a document whose
/// content did not change is never rewritten.
public final class Store: Sendable {
    /// The backing folder, absolute, without a trailing slash: the store's boundary names places in
    /// the file system as `FilePath`s (docs/ARCHITECTURE.md, "The store's boundary").
    public let folder: FilePath
    /// `folder` as the store's inside uses it: a `String` (its file I/O passes C strings on).
    let path: String
    public let timeZone: StoreTimeZone
    public let actor: ActorID
    /// The write lanes every change of documents runs in (`Writing/WriteLanes.swift`), on the caller's
    /// thread: changes of different months run at once, changes of one month one at a time, in order;
    /// a synchronization pass or a merge of conflict copies holds the whole store. Taken before `state`
    /// and never inside it: their file I/O happens with `state` released (`Replica/MonthReplicas+CheckOut.swift`).
    let writeLanes = WriteLanes()
    /// The threads changes of documents run on, below the CPU priority of reads (`Writing/DocumentWriters.swift`):
    /// four, so saves of four months run at once.
    let writers = DocumentWriters(count: 4, niceness: Store.writerNiceness)
    /// The writers' nice value: 10, or `MINUTAFS_WRITER_NICENESS` (0: writes at the readers' priority).
    static let writerNiceness: Int32 = getenv("MINUTAFS_WRITER_NICENESS").flatMap { Int32(String(cString: $0)) } ?? 10
    /// Month documents held but deleted from the folder (`Registry/DeletedDocuments.swift`), behind a
    /// lock of their own, taken inside `state`'s or alone, never the other way.
    let deletedMonths: DeletedDocuments
    /// Errors, rejections and the counts of `.minutafs/status` (`Events/StoreEvents.swift`).
    let events: StoreEvents
    /// The synchronization passes' counts, kept for `.minutafs/status` and written by the passes alone
    /// (`Synchronization/SynchronizationPasses.swift`).
    let synchronizationPasses = SynchronizationPasses()
    /// The replicas of the documents and every decision about them: loading, parking, rendering, the
    /// view cache, record holders, check-out and check-in of a change (`Replica/MonthReplicas.swift`).
    let replicas: MonthReplicas
    /// The months and years of the backing folder (`Backing/MonthListing.swift`).
    let listing: MonthListing
    /// Document files that do not load (SPEC 5a; `Replica/UnreadableFiles.swift`).
    let unreadable: UnreadableFiles
    /// The document files: read, merged from disk, written by exchange, conflict copies
    /// (`Replica/DocumentFiles.swift`).
    let documentFiles: DocumentFiles
    /// Seconds since the epoch: the time of changes the store commits, of names it gives, and of its
    /// grace periods (``Store/systemClock`` unless told).
    let clock: @Sendable () -> Int
    /// Record saves and their decisions (`Writing/RecordSaver.swift`).
    let records: RecordSaver
    /// `tags.json` saves (`Writing/TagsSaver.swift`).
    let tagsSaver: TagsSaver
    /// Records moved between months: the journal, the moves remembered across mounts, edits carried
    /// after a move (`Writing/RecordMoves.swift`).
    let moves: RecordMoves
    /// Where the store reports what happened to its document files (the mount's log).
    let log: @Sendable (String) -> Void
    /// The backing folder, known by its device and inode when the store was opened (`Backing/BackingFolder.swift`).
    let backingFolder: BackingFolder
    /// Whether records held by two month documents are found (`Replica/MonthReplicas+RecordHolders.swift`).
    let indexesRecordHolders: Bool
    /// Whether conflict copies are merged, in memory only, into the documents read (the read-only
    /// commands; `Store+WaitingCopies.swift`).
    let mergesWaitingCopiesInMemory: Bool
    /// The conflict copies such a store found and merged (`Conflicts/WaitingCopyReader.swift`).
    let waitingCopyReader: WaitingCopyReader
    /// `.minutafs/conflicts` (`Events/ConflictReport.swift`).
    let conflicts: ConflictReport
    /// The store's temporary files a killed process left (`Replica/LeftoverFiles.swift`).
    let leftovers: LeftoverFiles
    /// Files passed through to the backing folder: images, notes, folders (`Backing/PassThroughFiles.swift`).
    let passThrough: PassThroughFiles

    /// How long a moved record's old name keeps resolving, in seconds.
    static let gracePeriod = 30

    /// The largest record or tags file the store takes: a month of records renders to well under
    /// 1 MiB, and the whole file is parsed in memory.
    public static let maximumJSONFileSize = 16 << 20
    /// The largest image (or other passed-through file) written through the store.
    public static let maximumPassThroughFileSize = 256 << 20

    /// Opens the store at `folder`, made absolute from the working directory when relative (trailing
    /// slashes are dropped; `~` is not expanded: the shell does that). It must hold `tags.automerge` or a
    /// `records` folder (a new empty folder is accepted too); a legacy JSON store is refused with a
    /// message saying to migrate.
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
    /// - Throws: ``StoreError/notFound(_:)`` naming the absolute folder when it is not a folder,
    ///   ``StoreError/legacyStore(_:)`` for a legacy JSON store.
    public convenience init(
        folder: FilePath, timeZone: StoreTimeZone = .utc, actor: ActorID = .random(), stateDirectory: FilePath? = nil,
        cacheDirectory: FilePath? = nil, indexesRecordHolders: Bool = true, mergesWaitingCopiesInMemory: Bool = false,
        clock: @escaping @Sendable () -> Int = Store.systemClock,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(StoreError) {
        try self.init(folder: folder, timeZone: timeZone, actor: actor, stateDirectory: stateDirectory, cacheDirectory: cacheDirectory,
                      indexesRecordHolders: indexesRecordHolders, mergesWaitingCopiesInMemory: mergesWaitingCopiesInMemory,
                      clock: clock, log: log, faults: nil)
    }

    /// A store whose document writes see the system-call failures, delays and holds `faults` makes
    /// (tests; `Backing/FaultInjection.swift`).
    package init(
        folder: FilePath, timeZone: StoreTimeZone = .utc, actor: ActorID = .random(), stateDirectory: FilePath? = nil,
        cacheDirectory: FilePath? = nil, indexesRecordHolders: Bool = true, mergesWaitingCopiesInMemory: Bool = false,
        clock: @escaping @Sendable () -> Int = Store.systemClock,
        log: @escaping @Sendable (String) -> Void = { _ in }, faults: FaultInjection?
    ) throws(StoreError) {
        // FilePath drops trailing slashes (and doubled ones); a relative folder is taken from the working
        // directory lexically (`..` kept, no link resolved).
        let absoluteFolder = Self.absolute(folder)
        let absolute = absoluteFolder.string
        guard let status = BackingFiles.status(absolute), status.isDirectory else { throw .notFound(absolute) }
        let hasTags = BackingFiles.status(absolute + "/tags.automerge") != nil
        if !hasTags && BackingFiles.status(absolute + "/tags.json")?.isRegularFile == true {
            throw .legacyStore(absolute)
        }
        self.folder = absoluteFolder
        self.path = absolute
        self.indexesRecordHolders = indexesRecordHolders
        self.mergesWaitingCopiesInMemory = mergesWaitingCopiesInMemory
        let waitingCopyReader = WaitingCopyReader(path: absolute, actor: actor, isMerging: mergesWaitingCopiesInMemory)
        self.waitingCopyReader = waitingCopyReader
        self.timeZone = timeZone
        self.actor = actor
        self.log = log
        let events = StoreEvents(log: log)
        self.events = events
        let deletedMonths = DeletedDocuments(events: events)
        self.deletedMonths = deletedMonths
        self.clock = clock
        let backingFolder = BackingFolder(path: absolute, events: events, faults: faults)
        self.backingFolder = backingFolder
        let unreadable = UnreadableFiles()
        self.unreadable = unreadable
        let documentFiles = DocumentFiles(folder: backingFolder, actor: actor, unreadable: unreadable, events: events, clock: clock)
        self.documentFiles = documentFiles
        // A state folder that cannot be made leaves moves unjournaled rather than the store unusable.
        let moveJournal = stateDirectory.flatMap { try? MoveJournal(stateDirectory: $0.string, storePath: absolute) }
        let movedRecordMemory = stateDirectory.flatMap { try? MovedRecordMemory(stateDirectory: $0.string, storePath: absolute) }
        // A cache folder that cannot be made only makes every first read render.
        let viewCache = cacheDirectory.flatMap {
            try? MonthViewCache(cacheDirectory: $0.string, timeZone: timeZone.identifier, renderer: MonthViewCache.rendererFingerprint(timeZone: timeZone))
        }
        let listing = MonthListing(backingFolder: backingFolder, deletedMonths: deletedMonths, waitingCopyReader: waitingCopyReader)
        self.listing = listing
        self.replicas = MonthReplicas(
            path: absolute, actor: actor, timeZone: timeZone, clock: clock, documentFiles: documentFiles, unreadable: unreadable,
            waitingCopyReader: waitingCopyReader, listing: listing, viewCache: viewCache, indexesRecordHolders: indexesRecordHolders)
        let moves = RecordMoves(replicas: replicas, documentFiles: documentFiles, events: events, journal: moveJournal,
                                memory: movedRecordMemory, log: log)
        self.moves = moves
        self.records = RecordSaver(replicas: replicas, documentFiles: documentFiles, events: events, moves: moves)
        self.tagsSaver = TagsSaver(replicas: replicas, documentFiles: documentFiles, events: events)
        self.leftovers = LeftoverFiles(replicas: replicas, documentFiles: documentFiles, backingFolder: backingFolder, events: events)
        self.conflicts = ConflictReport(replicas: replicas, events: events)
        self.passThrough = PassThroughFiles(backingFolder: backingFolder, documentFiles: documentFiles, replicas: replicas,
                                            records: records, events: events)
        if let remembered = movedRecordMemory?.load(), !remembered.isEmpty {
            replicas.withState { $0.movedAway = MovedAwayRecords(remembered) }
        }
    }

    /// `folder` made absolute: a relative one is pushed onto the working directory (unchanged when
    /// that cannot be read, as `getcwd` fails only for a removed or unreachable working folder).
    static func absolute(_ folder: FilePath) -> FilePath {
        guard folder.isRelative else { return folder }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return folder }
        return buffer.withUnsafeBufferPointer { pointer in
            pointer.baseAddress.map { FilePath(platformString: $0) } ?? FilePath("/")
        }.pushing(folder)
    }

    /// The system's clock, in seconds since the epoch.
    public static let systemClock: @Sendable () -> Int = { Int(time(nil)) }

    /// The store's clock, in seconds since the epoch.
    public func now() -> Int { clock() }

    // MARK: Documents

    // MARK: Listing

    /// The months that have a document or an image folder, in order.
    public func months() throws(StoreError) -> [Month] { try listing.months() }

    /// The months of one year folder (`records/2024`) that have a document or an image folder, in order;
    /// empty when the year has no folder.
    public func months(inYear yearName: String) throws(StoreError) -> [Month] { try listing.months(inYear: yearName) }

    /// Whether `months()` includes `month`, without listing every year: a few `lstat` calls.
    public func hasMonth(_ month: Month) -> Bool { listing.hasMonth(month) }

    /// The years that have at least one month folder or document, or an empty folder.
    public func years() throws(StoreError) -> [String] { try listing.years() }

    /// The record files of a month, computed once per document state.
    public func recordFiles(in month: Month) throws(StoreError) -> [RecordFile] { try replicas.recordFiles(in: month) }

    /// The record file with this name in the month, or a record that moved away from that name
    /// moments ago (so an editor can re-read what it just wrote).
    public func recordFile(named name: String, in month: Month) throws(StoreError) -> RecordFile? {
        try replicas.recordFile(named: name, in: month)
    }

    /// `recordFile(named:in:)` for several names at once: from the published view when it shows them
    /// all, else under one hold of the state lock.
    public func recordFiles(named names: [String], in month: Month) throws(StoreError) -> [RecordFile?] {
        try replicas.recordFiles(named: names, in: month)
    }

    /// The contents of `tags.json`.
    public func tagsFile() throws(StoreError) -> [UInt8] { try replicas.tags.file() }

    /// A copy of a month's document as the store holds it (for inspection and tests).
    public func document(of month: Month) throws(StoreError) -> Document? {
        try replicas.heldDocumentAndFile(of: month)?.document
    }

    public func tagsDocument() throws(StoreError) -> Document {
        try replicas.heldDocumentAndFile(of: nil)?.document ?? Document(actor: actor)
    }

    /// Lines describing rejected writes, oldest first (`.minutafs/errors`).
    public var rejectionLog: [String] { events.snapshot.lines }

    /// The refused writes kept for the user: file name to bytes, oldest first.
    public var rejectedFiles: [(name: String, bytes: [UInt8])] { events.snapshot.rejectedFiles }

    /// Notes a write the mount refused because it was larger than `limit` bytes (its bytes never
    /// reached the store), for `.minutafs/errors`.
    public func recordOversizedWrite(toPath relative: String, limit: Int) {
        events.noteRejection(.rejected(file: relative, line: nil, column: nil, reason: .tooLarge(limit: limit)))
    }
}
