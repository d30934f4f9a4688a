import AutomergeKit
import FileTreeInterface
import Synchronization

/// The store as the mount shows it: paths (`/tags.json`, `/records/2024/01/2024-01-15_093000.json`,
/// images, `/.minutafs/status`) mapped onto records, tags and backing files (SPEC section 3).
/// The FUSE adapter reaches the store only through this type, as a `FileTree` (`StoreView+FileTree.swift`:
/// the store's errors become the errno a program gets there, once). The methods here answer in the
/// store's terms (`StoreError`); `StoreSynchronizer` reports what the sync tool changed through it.
public final class StoreView: Sendable {
    public let store: Store
    /// Shown in `.minutafs/status`: the mount point, absolute, and the mount options.
    public let mountDescription: String
    /// Shown in `.minutafs/status`: where the mount's log goes (a file for a background mount).
    public let logDescription: String
    /// `reports/`: timesheets and pictures computed from the records (SPEC section 9).
    public let reports: StoreReports
    /// `.minutafs/history/`: every past state, read-only, not listed (SPEC section 8).
    public let history: StoreHistory

    /// The time of a folder with nothing in the backing folder to take a time from (see `folderTime`).
    private let openedAt: Int
    /// Loads a listed year's months ahead of the reader (`Replica/MonthReplicas+Prefetch.swift`).
    let prefetcher: MonthPrefetcher
    /// Told the paths that changed other than through the mount's own request (`setChangeHandler`).
    let changeHandler = Mutex<ChangeHandler?>(nil)

    /// The mount's change handler, held in a struct. A function value kept directly in a `Mutex` (a
    /// generic container) is re-wrapped in two reabstraction thunks at every `withLock` that reads it,
    /// and the wrappers are stored back: after 20,000 saves a report went through 40,000 of them (time
    /// and memory that grew with every save). A struct's function field is not re-wrapped.
    struct ChangeHandler {
        let call: @Sendable (TreeChange) -> Void
    }

    /// What the mount holds that has not reached the store (`setPendingWorkReporter`), in a struct for
    /// the reason `ChangeHandler` gives.
    let pendingWorkReporter = Mutex<PendingWorkReporter?>(nil)

    /// What answers `.minutafs/timer`, `now.json` and `now.txt`, held for the whole of a timer action
    /// (stop what runs, start the new one), so two at once are carried out one after the other.
    let timerControl = Mutex<TimerControl>(TimerControl())
    /// How many times changes were reported to the mount (`report(_:)`): with `timerMinute`, what tells
    /// `now.json` it may have to be rendered again (`changeToken`).
    let reportedChanges = Atomic<Int>(0)
    /// How many minutes the mount counted (`advanceTimerMinute`).
    let timerMinute = Atomic<Int>(0)

    struct PendingWorkReporter {
        let report: @Sendable () -> PendingWork
    }

    public init(store: Store, mountDescription: String = "", logDescription: String = "", reports: StoreReports? = nil) {
        self.store = store
        self.mountDescription = mountDescription
        self.logDescription = logDescription
        self.reports = reports ?? StoreReports(store: store)
        history = StoreHistory(store: store)
        openedAt = store.now()
        prefetcher = MonthPrefetcher(store: store)
    }

    /// Work a mount starts once it serves: the index of which month documents hold which records
    /// (`Replica/MonthReplicas+RecordHolders.swift`), built on the background thread instead of by the first
    /// listing. `changed` gets the documents whose months show other records once it is built.
    public func startBackgroundWork(changed: @escaping @Sendable ([String]) -> Void) {
        store.willIndexRecordHolders()
        prefetcher.run { [store] in
            let documents = store.indexRecordHolders()
            if !documents.isEmpty { changed(documents) }
        }
    }

    /// What a path names.
    enum Place: Equatable {
        case root, tags, records, year(String), month(Month), record(Month, String)
        case control, controlFile(String)
        /// `.minutafs/rejected/` and the refused writes in it.
        case rejectedFolder, rejectedFile(String)
        /// A file or folder passed through from the backing folder (relative path), maybe in a month.
        case passThrough(String, Month?)
        /// `reports/`, `reports/YYYY/` and the report files in them: read-only.
        case reports, reportYear(String), report(ReportFile)
        /// `.minutafs/history` and everything under it (the components below it): read-only.
        case history([Substring])

        /// `reports/` and `.minutafs/history/` and everything in them: every change there fails with
        /// `EROFS`. The one place that decides it: the store's errors ask here, and the adapter answers
        /// from the attributes these places have (folders that are not writable).
        var isReadOnlyView: Bool {
            switch self {
            case .reports, .reportYear, .report, .history: true
            default: false
            }
        }
    }

    /// EROFS: what every change under `reports/` fails with.
    static func readOnly(_ path: String, _ operation: String) -> StoreError {
        .system(file: path, operation: operation, errno: .readOnlyFileSystem)
    }

    /// The files of `.minutafs/`: `now.json`, `now.txt` and `timer` are answered by the timer
    /// commands' code the mount registers (`StoreView+TimerControl.swift`).
    static let controlFiles = ["status", "errors", "conflicts", TimerControl.nowJSON, TimerControl.nowText, TimerControl.requestFile]

    func place(of path: String) throws(StoreError) -> Place {
        // Substrings: the mount asks for every file it opens or lists, so no String per component.
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !parts.contains(where: { $0 == ".." || $0 == "." }) else { throw .invalidName(path) }
        switch parts.count {
        case 0: return .root
        case 1:
            switch parts[0] {
            case "tags.json": return .tags
            case "records": return .records
            case ".minutafs": return .control
            case "reports": return .reports
            default: return .passThrough(String(parts[0]), nil)
            }
        default:
            if parts[0] == ".minutafs" {
                if parts[1] == "history" { return .history(Array(parts.dropFirst(2))) }
                if parts[1] == "rejected" {
                    if parts.count == 2 { return .rejectedFolder }
                    if parts.count == 3 { return .rejectedFile(String(parts[2])) }
                    throw .notFound(path)
                }
                guard parts.count == 2, Self.controlFiles.contains(where: { $0 == parts[1] }) else { throw .notFound(path) }
                return .controlFile(String(parts[1]))
            }
            if parts[0] == "reports" {
                guard Month.isYearName(parts[1]) else { throw .notFound(path) }
                if parts.count == 2 { return .reportYear(String(parts[1])) }
                guard parts.count == 3, let file = ReportFile(name: String(parts[2]), yearName: String(parts[1])) else { throw .notFound(path) }
                return .report(file)
            }
            guard parts[0] == "records" else { return .passThrough(parts.joined(separator: "/"), nil) }
            let year = String(parts[1])
            guard Month.isYearName(year) else { return .passThrough(parts.joined(separator: "/"), nil) }
            if parts.count == 2 { return .year(year) }
            guard let month = Month(yearName: year, monthName: String(parts[2])) else { return .passThrough(parts.joined(separator: "/"), nil) }
            if parts.count == 3 { return .month(month) }
            if parts.count == 4, parts[3].hasSuffix(".json") { return .record(month, String(parts[3])) }
            return .passThrough(parts.joined(separator: "/"), month)
        }
    }

    // MARK: Reading

    func storeEntries(inDirectory path: String) throws(StoreError) -> [(name: String, isDirectory: Bool)] {
        switch try place(of: path) {
        case .root:
            var result: [(name: String, isDirectory: Bool)] = [("tags.json", false), (".minutafs", true)]
            let hasMonths = try !store.months().isEmpty
            if hasMonths || store.passThroughStatus("records")?.isDirectory == true { result.append(("records", true)) }
            if hasMonths { result.append(("reports", true)) }
            for entry in try store.passThroughEntries("") where entry.name != "records" && entry.name != "tags.json" && entry.name != "reports" {
                result.append(entry)
            }
            return result
        case .records:
            var years = Set(try store.years())
            for month in try store.months() { years.insert(month.yearName) }
            var result = years.sorted().map { (name: $0, isDirectory: true) }
            for entry in try store.passThroughEntries("records") where !years.contains(entry.name) { result.append(entry) }
            return result
        case .year(let year):
            let months = try store.months(inYear: year)
            // A year is listed before its months are read: load them ahead on the other core.
            prefetcher.prefetch(months)
            var result = months.map { (name: $0.monthName, isDirectory: true) }
            let names = Set(months.map(\.monthName))
            for entry in try store.passThroughEntries("records/" + year) where !names.contains(entry.name) { result.append(entry) }
            guard !result.isEmpty || store.passThroughStatus("records/" + year)?.isDirectory == true else { throw .notFound(path) }
            return result
        case .month(let month):
            var result = try store.recordFiles(in: month).map { (name: $0.name, isDirectory: false) }
            let shown = Set(result.map(\.name))
            for entry in try store.passThroughEntries(month.folderPath)
            where !entry.name.hasSuffix(".json") && !shown.contains(entry.name) {
                result.append(entry)
            }
            return result
        case .control:
            return Self.controlFiles.map { ($0, false) } + [("rejected", true)]
        case .reports:
            return Set(try reports.months().map(\.yearName)).sorted().map { ($0, true) }
        case .reportYear(let year):
            let months = try reports.months(inYear: year)
            guard !months.isEmpty else { throw .notFound(path) }
            return ReportFile.names(for: months).map { ($0, false) }
        case .rejectedFolder:
            return store.rejectedFiles.map { ($0.name, false) }
        case .history(let parts):
            defer { forgetDroppedSnapshots() }
            return try history.entries(parts, path: path)
        case .passThrough(let relative, _):
            guard store.passThroughStatus(relative)?.isDirectory == true else { throw .notFound(path) }
            return try store.passThroughEntries(relative)
        case .tags, .record, .controlFile, .rejectedFile, .report:
            throw .invalidName(path)
        }
    }

    func storeAttributes(ofPath path: String) throws(StoreError) -> TreeAttributes {
        let now = store.now()
        switch try place(of: path) {
        case .root, .records, .control:
            return TreeAttributes(isDirectory: true, size: 0, modificationSeconds: folderTime(""), modificationNanoseconds: 0, isWritable: true)
        case .rejectedFolder:
            return TreeAttributes(isDirectory: true, size: 0, modificationSeconds: now, modificationNanoseconds: 0, isWritable: false)
        case .reports:
            guard try !reports.months().isEmpty else { throw .notFound(path) }
            return TreeAttributes(isDirectory: true, size: 0, modificationSeconds: folderTime("records"), modificationNanoseconds: 0, isWritable: false)
        case .reportYear(let year):
            guard try !reports.months(inYear: year).isEmpty else { throw .notFound(path) }
            return TreeAttributes(isDirectory: true, size: 0, modificationSeconds: folderTime("records/" + year), modificationNanoseconds: 0, isWritable: false)
        case .report(let file):
            // The kernel keeps its pages until its month or the tags change (`reportPaths`), unless a
            // running timer makes it follow the clock: then every open reads it afresh (direct_io).
            let size = try reports.contents(of: file).count
            var time = now
            switch file {
            case .timesheet(let month), .byTag(let month), .picture(let month): time = folderTime(month.documentPath)
            case .summary: break
            }
            return TreeAttributes(isDirectory: false, size: size, modificationSeconds: time, modificationNanoseconds: 0, isWritable: false,
                              changesOnlyWithNotice: !reports.followsClock(file))
        case .rejectedFile(let name):
            guard let file = store.rejectedFiles.first(where: { $0.name == name }) else { throw .notFound(path) }
            return TreeAttributes(isDirectory: false, size: file.bytes.count, modificationSeconds: now, modificationNanoseconds: 0, isWritable: false)
        case .history(let parts):
            defer { forgetDroppedSnapshots() }
            return try history.attributes(parts, path: path)
        case .year(let year):
            // (A year folder is a directory whenever it has months: listing them is rarely needed.)
            var exists = store.passThroughStatus("records/" + year)?.isDirectory == true
            if !exists { exists = try !store.months(inYear: year).isEmpty }
            guard exists else { throw .notFound(path) }
            return TreeAttributes(isDirectory: true, size: 0, modificationSeconds: folderTime("records/" + year), modificationNanoseconds: 0, isWritable: true)
        case .month(let month):
            guard store.hasMonth(month) else { throw .notFound(path) }
            return TreeAttributes(isDirectory: true, size: 0, modificationSeconds: folderTime(month.folderPath), modificationNanoseconds: 0, isWritable: true)
        case .tags:
            let bytes = try store.tagsFile()
            return TreeAttributes(isDirectory: false, size: bytes.count, modificationSeconds: folderTime(DocumentName.tagsPath), modificationNanoseconds: 0, isWritable: true)
        case .record(let month, let name):
            let found: RecordFile?
            do {
                found = try store.recordFile(named: name, in: month)
            } catch .unloadableDocument {
                // A month never read that does not load shows no record (its listing fails with EIO): the
                // kernel's lookup before a create finds nothing, so the create itself is refused, with
                // EROFS and the reason, rather than an I/O error (SPEC 5a, 5b).
                throw .notFound(path)
            }
            guard let file = found else { throw .notFound(path) }
            return TreeAttributes(isDirectory: false, size: file.contents.count, modificationSeconds: file.modificationTime, modificationNanoseconds: 0,
                              isWritable: !store.isDeletedDocument(month))
        case .controlFile(TimerControl.requestFile):
            // Written with a request and read back, on one handle, for the answer (`answer(_:atPath:)`).
            return TreeAttributes(isDirectory: false, size: 0, modificationSeconds: now, modificationNanoseconds: 0, isWritable: true)
        case .controlFile(let name) where name == TimerControl.nowJSON || name == TimerControl.nowText:
            let file = timerControlFile(name)
            return TreeAttributes(isDirectory: false, size: file.contents.count, modificationTime: file.renderedAt, isWritable: false,
                                  changesWithoutNotice: !file.followsReports)
        case .controlFile:
            return TreeAttributes(isDirectory: false, size: try storeContents(ofPath: path).count, modificationSeconds: now, modificationNanoseconds: 0, isWritable: false)
        case .passThrough(let relative, _):
            guard let status = store.passThroughStatus(relative), !PassThroughFiles.isHidden(BackingFiles.lastComponent(relative)) else { throw .notFound(path) }
            return TreeAttributes(isDirectory: status.isDirectory, size: status.size, modificationSeconds: status.modificationSeconds,
                              modificationNanoseconds: status.modificationNanoseconds, isWritable: true)
        }
    }

    /// `attributes(ofPath:)` of several names in one directory, in their order (nil where it throws):
    /// the record files of a month folder are found in one look at the store (`recordFiles(named:in:)`).
    public func attributes(ofEntries names: [String], inDirectory path: String) -> [TreeAttributes?] {
        let single = { (name: String) -> TreeAttributes? in try? self.storeAttributes(ofPath: TreePath.appending(name, to: path)) }
        guard case .month(let month)? = try? place(of: path) else { return names.map(single) }
        let isRecord = names.map { name in name.hasSuffix(".json") && !name.utf8.contains(UInt8(ascii: "/")) }
        let files = (try? store.recordFiles(named: names.indices.filter { isRecord[$0] }.map { names[$0] }, in: month)) ?? []
        var filesByName: [String: RecordFile] = [:]
        for case let file? in files { filesByName[file.name] = file }
        let isWritable = !store.isDeletedDocument(month)
        return names.indices.map { index in
            guard isRecord[index], let file = filesByName[names[index]] else { return single(names[index]) }
            return TreeAttributes(isDirectory: false, size: file.contents.count, modificationSeconds: file.modificationTime, modificationNanoseconds: 0, isWritable: isWritable)
        }
    }

    /// A folder's time: its backing folder's; for a month shown from its document alone, the document's;
    /// else when the tree was opened. Never the time of asking: a folder time that moved on every `stat`
    /// made the kernel drop the folder's kept listing at each look (its cache is reset when the mtime changes).
    private func folderTime(_ relative: String) -> Int {
        store.passThroughStatus(relative)?.modificationSeconds
            ?? store.passThroughStatus(relative + ".automerge")?.modificationSeconds
            ?? openedAt
    }

    func storeContents(ofPath path: String) throws(StoreError) -> [UInt8] {
        switch try place(of: path) {
        case .tags: return try store.tagsFile()
        case .report(let file): return try reports.contents(of: file)
        case .history(let parts):
            defer { forgetDroppedSnapshots() }
            return try history.contents(parts, path: path)
        case .record(let month, let name):
            guard let file = try store.recordFile(named: name, in: month) else { throw .notFound(path) }
            return file.contents
        case .rejectedFile(let name):
            guard let file = store.rejectedFiles.first(where: { $0.name == name }) else { throw .notFound(path) }
            return file.bytes
        case .controlFile(let name):
            switch name {
            case "status": return Array(statusText().utf8)
            case "errors": return Array(store.rejectionLog.map { $0 + "\n" }.joined().utf8)
            case TimerControl.nowJSON, TimerControl.nowText, TimerControl.requestFile: return timerControlFile(name).contents
            default: return Array(try store.conflictReport().joined().utf8)
            }
        case .passThrough(let relative, _):
            guard !PassThroughFiles.isHidden(BackingFiles.lastComponent(relative)) else { throw .notFound(path) }
            return try store.passThroughContents(relative)
        default:
            throw .invalidName(path)
        }
    }

    /// What the status's `store:` line adds when the backing folder is no longer at the store's path:
    /// where it was moved (what the mount shows is what it read last, read-only), or that it is gone.
    static func backingFolderNote(_ store: Store, noted: Bool) -> String {
        guard noted || !store.backingFolderIsPresent else { return "" }
        if let target = store.backingFolderMovedTo {
            return " (moved to \(target.string) while mounted: the mount shows what it read last, read-only, and every write fails "
                + "with EROFS; unmount and mount it from where it is now)"
        }
        return " (moved, deleted or replaced while mounted: every write fails with EROFS; unmount and mount it from where it is now)"
    }

    func statusText() -> String {
        let status = store.status()
        let pending = pendingWorkReporter.withLock { $0 }?.report() ?? PendingWork()
        return """
        store: \(store.path)\(Self.backingFolderNote(store, noted: status.backingFolderGone))
        mount: \(mountDescription)\(logDescription.isEmpty ? "" : "\nlog: " + logDescription)
        time zone: \(store.timeZone.identifier)
        history: .minutafs/history (not listed; ls it for the days; minutafs restore sets one record or tag back)
        deleted documents: \(deletedDocumentsText())
        records in two documents: \(hiddenCopiesText())
        actor: \(store.actor.hexString)
        documents loaded: \(status.documentsLoaded)\(status.documentsLoaded == 0 ? " (each is loaded on first read)" : "")
        documents saved: \(status.documentsSaved)
        pending writes: \(pending.count)
        journal: \(journalText(pending))
        last merge: \(status.lastMerge ?? "none")
        conflict copies merged: \(status.mergedCopies)
        rejected writes: \(status.rejectedWrites)
        failed deferred writes: \(status.failedDeferredWork)
        synchronization passes: \(status.synchronizationPasses)
        failed merges: \(status.failedMerges)
        last merge failure: \(status.lastMergeFailure ?? "none")
        unreadable documents: \(status.unreadableDocuments.count)

        """ + status.unreadableDocuments.map { "  \($0)\n" }.joined()
            + pending.journaled.map { "  waiting in the journal: \($0)\n" }.joined()
    }

    /// The status line of the mount's journal: where it is and how much it holds.
    private func journalText(_ pending: PendingWork) -> String {
        guard let folder = pending.journalFolder else { return "none (what the mount defers is only in memory)" }
        let count = pending.journaled.count
        return "\(folder), \(count) acknowledged change\(count == 1 ? "" : "s") not yet in the folder"
    }

    private func hiddenCopiesText() -> String {
        let copies = store.hiddenCopies
        guard !copies.isEmpty else { return "none" }
        return copies.map { "\($0.id) shown in \($0.shownIn), also in \($0.document) (not shown)" }.joined(separator: "; ")
    }

    private func deletedDocumentsText() -> String {
        let deleted = store.deletedDocuments
        guard !deleted.isEmpty else { return "none" }
        return deleted.map(\.documentPath).joined(separator: ", ") + " (deleted from the folder; records shown read-only until an edit is saved)"
    }

    /// Whether the tree stores a file of this name itself (else the mount keeps it as a scratch file).
    public func accepts(fileNamed name: String, inDirectory path: String) -> Bool {
        guard !ScratchName.isScratch(name), !PassThroughFiles.isHidden(name) else { return false }
        guard let place = try? place(of: path), !Self.isHeldWhileWritten(name, in: place) else { return false }
        switch place {
        case .control: return false
        case .root, .records, .year, .month, .passThrough: return true
        default: return false
        }
    }

    /// Whether the mount holds a file of this name in memory while it is written and gives it to the
    /// store only if it is still there a few seconds after its last close (`FileTree.settles`): in a
    /// month folder every name that is neither a record (`.json`) nor an app image name
    /// (`<record id>_<n>.<ext>`), and `tags.json.*` beside `tags.json`. Such names are mostly the
    /// temporary half of a write-then-rename save (`x.json.new`, `x.json.tmp.123`, Qt's `x.json.aBc123`),
    /// which must never reach the synced folder.
    public func settles(fileNamed name: String, inDirectory path: String) -> Bool {
        guard !ScratchName.isScratch(name), !PassThroughFiles.isHidden(name), let place = try? place(of: path) else { return false }
        return Self.isHeldWhileWritten(name, in: place)
    }

    /// A file held while written is the user's own when fsynced, unless it holds a record's or the tags'
    /// JSON: that is the temporary half of a save (`x.json.tmp`, then a rename), which stays in memory.
    public func settlesWhenSynced(_ contents: [UInt8], atPath path: String) -> Bool {
        !PassThroughFile.isRecordJSON(contents) && !PassThroughFile.isTagsJSON(contents)
    }

    /// A record and `tags.json` are JSON: empty, they are no record and no tags, and a save of them would
    /// be refused. Images and other files passed through are saved empty, as a disk would keep them.
    public func savesEmptyFile(atPath path: String) -> Bool {
        switch try? place(of: path) {
        case .record?, .tags?: false
        default: true
        }
    }

    /// Deferred work of the mount that failed goes to `.minutafs/errors`, the log and the status count.
    public func didFailDeferredWork(_ what: String, error: TreeError, outcome: String) {
        store.noteDeferredFailure(what, error: error.description, outcome: outcome)
    }

    static func isHeldWhileWritten(_ name: String, in directory: Place) -> Bool {
        switch directory {
        case .month: return !name.hasSuffix(".json") && PassThroughFile.imageOwner(name) == nil
        case .root: return name.hasPrefix("tags.json") && name != "tags.json"
        default: return false
        }
    }

    // MARK: Writing

    /// The largest file a path takes: records and `tags.json` are parsed whole, other files are
    /// held in memory until they are written.
    public func maximumFileSize(atPath path: String) -> Int {
        switch try? place(of: path) {
        case .tags?, .record?: Store.maximumJSONFileSize
        default: Store.maximumPassThroughFileSize
        }
    }

    /// Notes, for `.minutafs/errors`, a write the mount refused as larger than ``maximumFileSize(atPath:)``.
    public func didRefuseOversizedWrite(toPath path: String) {
        store.recordOversizedWrite(toPath: String(path.drop { $0 == "/" }), limit: maximumFileSize(atPath: path))
    }

    /// Applies new contents to a path. Returns the paths whose listing or contents changed (for
    /// the mount's caches), the written path included, and whether every name was kept
    /// (``TreeChange/keepsNames``: a record saved in place, `Store.WriteOutcome.keepsNames`).
    func storeWrite(_ contents: [UInt8], toPath path: String, reading: WriterRead = .unknown, createsFile: Bool = false) throws(StoreError) -> TreeChange {
        let place = try place(of: path)
        if place.isReadOnlyView { throw Self.readOnly(path, "write") }
        switch place {
        case .tags:
            _ = try store.writeTagsFile(contents, reading: reading)
            return TreeChange(paths: ["/tags.json"] + reportPaths(showing: (try? store.months()) ?? []))
        case .record(let month, let name):
            let outcome = try store.writeRecordFile(contents, named: name, in: month, reading: reading, createsFile: createsFile)
            var changed = [path, "/" + outcome.month.folderPath + "/" + outcome.fileName]
            for touched in outcome.touchedMonths { changed.append("/" + touched.folderPath) }
            changed += reportPaths(showing: [month, outcome.month] + outcome.touchedMonths)
            return TreeChange(paths: changed, keepsNames: outcome.keepsNames)
        case .passThrough(let relative, let month):
            try store.writePassThrough(contents, to: relative, month: month)
            return TreeChange(paths: [path])
        case .controlFile, .control, .rejectedFolder, .rejectedFile:
            throw Self.readOnly(path, "write")
        default:
            throw .invalidName(path)
        }
    }

    func storeRemoveFile(atPath path: String) throws(StoreError) {
        let place = try place(of: path)
        if place.isReadOnlyView { throw Self.readOnly(path, "unlink") }
        switch place {
        case .record(let month, let name): try store.deleteRecordFile(named: name, in: month)
        case .passThrough(let relative, let month): try store.removePassThrough(relative, month: month)
        default: throw .system(file: path, operation: "unlink", errno: .notPermitted) // EPERM
        }
    }

    func storeRenameFile(from source: String, to destination: String) throws(StoreError) {
        let places = (try place(of: source), try place(of: destination))
        if places.0.isReadOnlyView || places.1.isReadOnlyView { throw Self.readOnly(source, "rename") }
        switch places {
        case let (.passThrough(from, _), .passThrough(to, _)):
            try store.renamePassThrough(from: from, to: to)
        case let (.record(fromMonth, fromName), .record(toMonth, toName)):
            // `jq … > tmp.json && mv tmp.json f`: the write of tmp.json already saved the record f shows.
            try store.renameRecordFile(named: fromName, in: fromMonth, to: toName, in: toMonth)
        default:
            // Record names come from their startTime; renaming one would change nothing.
            throw .system(file: source, operation: "rename", errno: .notPermitted) // EPERM
        }
    }

    func storeMakeDirectory(atPath path: String) throws(StoreError) {
        // A new name under reports/ names no place at all, but the answer is still "read-only".
        if path == "/reports" || path.hasPrefix("/reports/") || path.hasPrefix("/.minutafs/history/") { throw Self.readOnly(path, "mkdir") }
        let place = try place(of: path)
        if place.isReadOnlyView { throw Self.readOnly(path, "mkdir") }
        switch place {
        case .year(let year): try store.makeFolder("records/" + year)
        case .month(let month): try store.makeFolder(month.folderPath)
        case .passThrough(let relative, _): try store.makeFolder(relative)
        default: throw .alreadyExists(path)
        }
    }

    func storeRemoveDirectory(atPath path: String) throws(StoreError) {
        let place = try place(of: path)
        if place.isReadOnlyView { throw Self.readOnly(path, "rmdir") }
        switch place {
        case .year(let year): try store.removeFolder("records/" + year, month: nil)
        case .month(let month): try store.removeFolder(month.folderPath, month: month)
        case .passThrough(let relative, _): try store.removeFolder(relative, month: nil)
        default: throw .system(file: path, operation: "rmdir", errno: .notPermitted)
        }
    }

    /// The report files (and their folders) that show these months: what a change to them makes stale.
    /// A month's document holds records that count in the months beside it too (`StoreReports`), so
    /// their reports are included.
    public func reportPaths(showing months: [Month]) -> [String] {
        var paths: [String] = []
        var years = Set<String>()
        for month in Set(months.flatMap(StoreReports.sourceMonths(of:))) {
            paths += ReportFile.paths(showing: month)
            years.insert(month.yearName)
        }
        return paths + years.sorted().map { "/reports/" + $0 } + (months.isEmpty ? [] : ["/reports"])
    }

    /// The names `extendedAttributes(ofPath:)` can hold.
    public static let extendedAttributeNames: Set<String> = ["user.minutafs.id", "user.minutafs.conflicts"]

    public func extendedAttributes(ofPath path: String) -> [String: [UInt8]] {
        guard case .record(let month, let name)? = try? place(of: path),
              let file = try? store.recordFile(named: name, in: month) else { return [:] }
        var attributes = ["user.minutafs.id": Array(file.id.utf8)]
        let conflicts = (try? store.conflictLines(forRecord: file.id, in: month)) ?? []
        attributes["user.minutafs.conflicts"] = Array(conflicts.joined().utf8)
        return attributes
    }
}
