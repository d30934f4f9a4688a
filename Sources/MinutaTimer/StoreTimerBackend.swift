import MinutaStore
import SystemPackage

/// Records of a store read and written directly through the store library: a store that is not
/// mounted, under its writer lock for commands that write (SPEC 10: never both this and a mount),
/// or the mount's own store when the mount carries out a timer request (`view`: saves go through it,
/// so the kernel is told what changed).
public struct StoreTimerBackend: TimerBackend {
    public let store: Store
    /// Held for as long as the backend is used; nil for commands that only read and in a mount.
    let lock: StoreLock?
    /// Where the running-timer index is kept (the state folder); nil keeps it in memory for one look.
    let indexPath: String?
    /// The same store opened to read documents merged with the conflict copies waiting beside them
    /// (a command that writes reads its own store without them); nil: `store` reads them itself, or a
    /// mount merges them.
    let reader: Store?
    /// The mount's view of `store`, when the mount carries out the request.
    let view: StoreView?
    /// The index kept in memory between looks (a mount); nil reads it from `indexPath` each time.
    let indexCache: RunningTimerIndexCache?
    /// The heads of the documents the current action wrote, before it wrote them (for `undo`).
    let headsLog = ActionHeadsLog()
    public var timeZone: StoreTimeZone { store.timeZone }
    public var placeDescription: String { store.folder.string }

    public init(store: Store, lock: StoreLock?, indexPath: String? = nil, reader: Store? = nil, view: StoreView? = nil,
                indexCache: RunningTimerIndexCache? = nil) {
        self.store = store
        self.indexCache = indexCache
        self.lock = lock
        self.indexPath = indexPath
        self.reader = reader
        self.view = view
    }

    public func months() throws(TimerError) -> [Month] {
        do { return try store.months() } catch { throw .storeFailed(file: store.folder.string, reason: error.description) }
    }

    public func recordFiles(in month: Month) throws(TimerError) -> [(name: String, bytes: [UInt8])] {
        do { return try shown(store.recordFiles(in: month), in: month).map { ($0.name, $0.contents) } } catch {
            throw .storeFailed(file: month.documentPath, reason: error.description)
        }
    }

    /// `files` without those removed through the mount whose removal waits out its grace period: gone
    /// for programs already, so gone for the timer (`now.json` at once; a stop would write the file again).
    private func shown(_ files: [RecordFile], in month: Month) -> [RecordFile] {
        guard let view else { return files }
        let removed = view.pendingRemovals()
        guard !removed.isEmpty else { return files }
        return files.filter { !removed.contains("/" + month.folderPath + "/" + $0.name) }
    }

    public func tagsJSON() throws(TimerError) -> [UInt8] {
        do { return try store.tagsFile() } catch { throw .storeFailed(file: DocumentName.tagsPath, reason: error.description) }
    }

    /// The months with running timers, from the index (brought up to date with the files first). A
    /// running timer in a waiting conflict copy, for a command that writes, is merged into the store
    /// first, as a mount would merge it, so that it can be stopped.
    public func recordFiles(named names: [String], in month: Month) throws(TimerError) -> [(name: String, bytes: [UInt8])] {
        do { return try shown(store.recordFiles(named: names, in: month).compactMap { $0 }, in: month).map { ($0.name, $0.contents) } } catch {
            throw .storeFailed(file: month.documentPath, reason: error.description)
        }
    }

    public func runningTimerFiles(everyMonth: Bool) throws(TimerError) -> [Month: [String]]? {
        var index = indexCache?.index ?? indexPath.map(RunningTimerIndex.load) ?? RunningTimerIndex()
        let source = reader ?? store
        let changed = try index.refresh(storePath: store.folder.string, everyMonth: everyMonth) { (month: Month) throws(TimerError) -> [String] in
            let files: [RecordFile]
            do throws(StoreError) { files = try source.recordFiles(in: month) } catch {
                throw .storeFailed(file: month.documentPath, reason: error.description)
            }
            return files.compactMap { TimerRecord(month: month, fileName: $0.name, bytes: $0.contents) }.filter(\.isRunning).map(\.fileName)
        }
        if changed, let indexPath { index.save(to: indexPath) }
        indexCache?.index = index
        let files = index.runningTimerFiles
        if lock != nil, reader != nil, files.keys.contains(where: index.hasWaitingCopies) {
            do { _ = try store.mergeConflictCopies() } catch {
                throw .storeFailed(file: store.folder.string, reason: "a running timer waits in a conflict copy that could not be merged: \(error.description)")
            }
        }
        return files
    }

    public func write(_ bytes: [UInt8], named name: String, in month: Month) throws(TimerError) {
        do { _ = try save(bytes, named: name, in: month) } catch {
            throw .storeFailed(file: month.folderPath + "/" + name, reason: error.description)
        }
    }

    public func create(_ bytes: [UInt8], in month: Month) throws(TimerError) -> String {
        // A name no record has in that month: the store files the record by its start and gives it an id.
        let name = "minutafs-start-" + String(UInt32.random(in: 0...UInt32.max), radix: 16) + ".json"
        do { return try save(bytes, named: name, in: month).id } catch {
            throw .storeFailed(file: month.folderPath, reason: error.description)
        }
    }

    private func save(_ bytes: [UInt8], named name: String, in month: Month) throws(StoreError) -> Store.WriteOutcome {
        try noteBeforeWriting(month)
        if let view { return try view.writeRecordForTimer(bytes, named: name, in: month) }
        return try store.writeRecordFile(bytes, named: name, in: month)
    }
}
