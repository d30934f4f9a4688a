import FileTreeInterface
import AutomergeKit
import Synchronization

/// `.minutafs/history/` (SPEC section 8): every past state of the store as read-only folders.
///
/// Paths here are relative to the history folder: `""` lists the days on which any document got a
/// change; `2024-03-10` (or any instant, see ``HistoryInstant``) is the store as it was then, with
/// `tags.json`, `records/YYYY/MM/*.json` rendered by the live view's code, and the images of those
/// records that still exist.
///
/// Snapshots are rendered lazily, one document at a time, and kept in a bounded cache keyed by the
/// document and the heads of its past state (so every instant between the same two changes shares
/// one entry). Effective times are kept per document file and computed again when the file changes.
public final class StoreHistory: Sendable {
    public let store: Store
    private let cache = Mutex(Cache())
    /// How many rendered month or tags snapshots are kept.
    static let renderedLimit = 48
    /// How many snapshot folders (`.minutafs/history/NAME`) the kernel is let keep: opening one more
    /// makes the mount tell the kernel to drop the least recently used one (``takeDroppedFolders()``),
    /// whose names, attributes and inodes are then forgotten on both sides. Without it every instant
    /// ever opened stayed in the kernel's cache and in the mount's inode table (about 1.25 kB a file).
    static let openFolderLimit = 24

    public init(store: Store) {
        self.store = store
    }

    struct Cache: Sendable {
        /// Document path to the file's identity when computed and the effective times of its changes.
        var times: [String: (key: FileKey, times: EffectiveTimes)] = [:]
        /// Document path to the file's identity and its changes' effective times (file order), read from
        /// the change metadata alone when the file allows (`Document.changeTimeline(ofFile:)`).
        var quickTimes: [String: (key: FileKey, milliseconds: [Int64])] = [:]
        /// `path|heads` to rendered snapshot, and when each was last used (a counter).
        var rendered: [String: RenderedDocument] = [:]
        var renderedUse: [String: UInt64] = [:]
        var clock: UInt64 = 0
        /// `path@instant` to the file it was resolved for and its `rendered` key: the next look at the
        /// same snapshot (every file of a month is looked up, opened and read) skips finding the heads.
        var resolved: [String: (file: FileKey, key: String)] = [:]
        /// Snapshot folder names as opened, to when each was last used (`clock`), at most `openFolderLimit`.
        var openFolders: [String: UInt64] = [:]
        /// Folder names dropped from `openFolders` that the kernel has not been told to forget yet.
        var droppedFolders: [String] = []

        mutating func open(folder name: String) {
            clock += 1
            if openFolders.updateValue(clock, forKey: name) != nil { return }
            while openFolders.count > StoreHistory.openFolderLimit, let oldest = openFolders.min(by: { $0.value < $1.value })?.key {
                openFolders[oldest] = nil
                droppedFolders.append(oldest)
            }
        }

        mutating func use(_ key: String) -> RenderedDocument? {
            guard let hit = rendered[key] else { return nil }
            clock += 1
            renderedUse[key] = clock
            return hit
        }
    }

    /// What identifies a version of a document file, without reading it.
    struct FileKey: Sendable, Equatable {
        var size: Int
        var seconds: Int
        var nanoseconds: Int
        var changeCount: Int
    }

    /// A document as a snapshot shows it.
    enum RenderedDocument: Sendable {
        case tags([UInt8])
        case month(MonthSnapshot)
    }

    /// A month's record files at an instant, and the images of its records that exist now.
    struct MonthSnapshot: Sendable {
        var files: [RecordFile]
        var images: [String]
        var indexByName: [String: Int]

        init(files: [RecordFile], images: [String]) {
            self.files = files
            self.images = images
            indexByName = Dictionary(files.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        }

        func file(named name: String) -> RecordFile? { indexByName[name].map { files[$0] } }
    }

    // MARK: Effective times

    /// The effective times of a month's document (the tags document for nil), in no particular order;
    /// nil when it has no document. Read from the file's change metadata when it is one document
    /// chunk (what the app and a full save write), which costs far less than loading it; else from
    /// the document (``times(of:)``).
    func effectiveMilliseconds(of month: Month?) throws(StoreError) -> [Int64]? {
        let path = DocumentName(month).relativePath
        guard let status = store.passThroughStatus(path), !status.isDirectory else { return try times(of: month)?.milliseconds }
        let key = FileKey(size: status.size, seconds: status.modificationSeconds, nanoseconds: status.modificationNanoseconds, changeCount: 0)
        let cached = cache.withLock { cache -> [Int64]? in
            if let quick = cache.quickTimes[path], Self.same(quick.key, key) { return quick.milliseconds }
            if let full = cache.times[path], Self.same(full.key, key) { return full.times.milliseconds }
            return nil
        }
        if let cached { return cached }
        guard let bytes = try? store.passThroughContents(path), let timeline = try? Document.changeTimeline(ofFile: bytes) else {
            return try times(of: month)?.milliseconds
        }
        let milliseconds = EffectiveTimes.milliseconds(of: timeline)
        cache.withLock { $0.quickTimes[path] = (key, milliseconds) }
        return milliseconds
    }

    private static func same(_ left: FileKey, _ right: FileKey) -> Bool {
        left.size == right.size && left.seconds == right.seconds && left.nanoseconds == right.nanoseconds
    }

    /// The effective times of a month's document (the tags document for nil), nil when it has none.
    func times(of month: Month?) throws(StoreError) -> EffectiveTimes? {
        try timesAndVersion(of: month)?.times
    }

    /// `times(of:)`, with the version of the file they are the times of (nil: the store holds changes its
    /// file does not have yet). The times are kept with that version, the one the held document was read
    /// from or saved as, and not with the file's status taken beside it: a save under way between the
    /// two would otherwise pair the document before the save with the file after it, and show the past
    /// as the present until the file changed again.
    private func timesAndVersion(of month: Month?) throws(StoreError) -> (times: EffectiveTimes, version: FileKey?)? {
        let path = DocumentName(month).relativePath
        let status = store.passThroughStatus(path)
        if let status, let cached = cache.withLock({ $0.times[path] }),
           cached.key.size == status.size, cached.key.seconds == status.modificationSeconds,
           cached.key.nanoseconds == status.modificationNanoseconds {
            return (cached.times, cached.key)
        }
        guard let (document, identity) = try store.replicas.heldDocumentAndFile(of: month) else { return nil }
        let times = EffectiveTimes(of: document)
        guard let identity else { return (times, nil) }
        let key = FileKey(size: Int(identity.size), seconds: identity.modificationSeconds, nanoseconds: identity.modificationNanoseconds,
                          changeCount: document.changeCount)
        cache.withLock { $0.times[path] = (key, times) }
        return (times, key)
    }

    private func document(of month: Month?) throws(StoreError) -> Document? {
        if let month { return try store.document(of: month) }
        return try store.tagsDocument()
    }

    /// The snapshot folders (names in the history folder) dropped to keep at most ``openFolderLimit``
    /// open, since the last call: the mount tells the kernel to forget them.
    public func takeDroppedFolders() -> [String] {
        cache.withLock { cache in
            defer { cache.droppedFolders = [] }
            return cache.droppedFolders
        }
    }

    // MARK: Listing

    /// `ls .minutafs/history`: one `YYYY-MM-DD` per day (store time zone) on which any document got a
    /// change, oldest first. Changes without a time (effective time 0) name no day.
    public func dayNames() throws(StoreError) -> [String] {
        var days = Set<String>()
        var documents: [[Int64]] = []
        if let times = try effectiveMilliseconds(of: nil) { documents.append(times) }
        for month in try store.months() {
            if let times = try effectiveMilliseconds(of: month) { documents.append(times) }
        }
        for times in documents {
            var lastDay: (start: Int64, end: Int64)?
            for time in times where time > 0 {
                if let lastDay, time >= lastDay.start, time < lastDay.end { continue }
                let name = HistoryInstant.dayName(ofMilliseconds: time, timeZone: store.timeZone)
                days.insert(name)
                // The day's bounds, so the changes of one day cost one time zone lookup.
                if let end = HistoryInstant.milliseconds(ofName: name, timeZone: store.timeZone),
                   let start = HistoryInstant.milliseconds(ofName: name + "T00:00:00", timeZone: store.timeZone) {
                    lastDay = (start, end + 1)
                }
            }
        }
        return days.sorted()
    }

    /// Where a path under the history folder points.
    enum Place: Equatable {
        case root
        case snapshot(Int64)
        case tags(Int64)
        case records(Int64)
        case year(Int64, String)
        case month(Int64, Month)
        case file(Int64, Month, String)
    }

    func place(_ parts: [Substring], path: String) throws(StoreError) -> Place {
        guard let first = parts.first else { return .root }
        guard let instant = HistoryInstant.milliseconds(ofName: String(first), timeZone: store.timeZone) else { throw .notFound(path) }
        cache.withLock { $0.open(folder: String(first)) }
        switch parts.count {
        case 1: return .snapshot(instant)
        case 2:
            if parts[1] == "tags.json" { return .tags(instant) }
            if parts[1] == "records" { return .records(instant) }
        case 3:
            if parts[1] == "records", Month.isYearName(parts[2]) { return .year(instant, String(parts[2])) }
        case 4:
            if parts[1] == "records", let month = Month(yearName: String(parts[2]), monthName: String(parts[3])) { return .month(instant, month) }
        case 5:
            if parts[1] == "records", let month = Month(yearName: String(parts[2]), monthName: String(parts[3])) {
                return .file(instant, month, String(parts[4]))
            }
        default: break
        }
        throw .notFound(path)
    }

    /// The months (of one year, when given) whose document had a change at `instant`.
    func months(at instant: Int64, inYear year: String? = nil) throws(StoreError) -> [Month] {
        let candidates = try candidates(inYear: year)
        var result: [Month] = []
        for month in candidates where try existed(month, at: instant) { result.append(month) }
        return result
    }

    /// Whether any month (of one year, when given) had a document at `instant`. Stops at the first
    /// that had: looking up `records/2024/03` in a snapshot loads no more documents than it needs.
    func hasMonth(at instant: Int64, inYear year: String? = nil) throws(StoreError) -> Bool {
        let candidates = try candidates(inYear: year)
        for month in candidates where try existed(month, at: instant) { return true }
        return false
    }

    private func candidates(inYear year: String?) throws(StoreError) -> [Month] {
        if let year { return try store.months(inYear: year) }
        return try store.months()
    }

    private func existed(_ month: Month, at instant: Int64) throws(StoreError) -> Bool {
        guard let earliest = try effectiveMilliseconds(of: month)?.min() else { return false }
        return earliest <= instant
    }

    /// The entries of a folder under the history folder (`parts`: the path's components below it).
    public func entries(_ parts: [Substring], path: String) throws(StoreError) -> [(name: String, isDirectory: Bool)] {
        switch try place(parts, path: path) {
        case .root:
            return try dayNames().map { ($0, true) }
        case .snapshot(let instant):
            return try hasMonth(at: instant) ? [("tags.json", false), ("records", true)] : [("tags.json", false)]
        case .records(let instant):
            return Set(try months(at: instant).map(\.yearName)).sorted().map { ($0, true) }
        case .year(let instant, let year):
            let months = try months(at: instant, inYear: year)
            guard !months.isEmpty else { throw .notFound(path) }
            return months.map { ($0.monthName, true) }
        case .month(let instant, let month):
            guard case .month(let snapshot)? = try rendered(month, at: instant) else { throw .notFound(path) }
            return snapshot.files.map { ($0.name, false) } + snapshot.images.map { ($0, false) }
        case .tags, .file:
            throw .invalidName(path)
        }
    }

    public func attributes(_ parts: [Substring], path: String) throws(StoreError) -> TreeAttributes {
        func folder(_ instant: Int64) -> TreeAttributes {
            TreeAttributes(isDirectory: true, size: 0, modificationSeconds: Int(max(0, instant) / 1000), modificationNanoseconds: 0, isWritable: false)
        }
        switch try place(parts, path: path) {
        case .root:
            // The backing folder's time: cheap, and not a time that moves at every look (see `StoreView.folderTime`).
            let time = store.passThroughStatus("")?.modificationSeconds ?? 0
            return TreeAttributes(isDirectory: true, size: 0, modificationSeconds: time, modificationNanoseconds: 0, isWritable: false)
        case .snapshot(let instant):
            return folder(instant)
        case .records(let instant):
            guard try hasMonth(at: instant) else { throw .notFound(path) }
            return folder(instant)
        case .year(let instant, let year):
            guard try hasMonth(at: instant, inYear: year) else { throw .notFound(path) }
            return folder(instant)
        case .month(let instant, let month):
            guard try rendered(month, at: instant) != nil else { throw .notFound(path) }
            return folder(instant)
        case .tags(let instant):
            let bytes = try tagsContents(at: instant)
            let time = try times(of: nil)?.latest(atOrBefore: instant) ?? 0
            return TreeAttributes(isDirectory: false, size: bytes.count, modificationSeconds: Int(time / 1000), modificationNanoseconds: 0, isWritable: false)
        case .file(let instant, let month, let name):
            guard case .month(let snapshot)? = try rendered(month, at: instant) else { throw .notFound(path) }
            if let file = snapshot.file(named: name) {
                return TreeAttributes(isDirectory: false, size: file.contents.count, modificationSeconds: file.modificationTime, modificationNanoseconds: 0, isWritable: false)
            }
            guard snapshot.images.contains(name), let status = store.passThroughStatus(month.folderPath + "/" + name), !status.isDirectory else { throw .notFound(path) }
            return TreeAttributes(isDirectory: false, size: status.size, modificationSeconds: status.modificationSeconds,
                                        modificationNanoseconds: status.modificationNanoseconds, isWritable: false)
        }
    }

    public func contents(_ parts: [Substring], path: String) throws(StoreError) -> [UInt8] {
        switch try place(parts, path: path) {
        case .tags(let instant):
            return try tagsContents(at: instant)
        case .file(let instant, let month, let name):
            guard case .month(let snapshot)? = try rendered(month, at: instant) else { throw .notFound(path) }
            if let file = snapshot.file(named: name) { return file.contents }
            guard snapshot.images.contains(name) else { throw .notFound(path) }
            return try store.passThroughContents(month.folderPath + "/" + name)
        default:
            throw .invalidName(path)
        }
    }

    // MARK: Rendering

    func tagsContents(at instant: Int64) throws(StoreError) -> [UInt8] {
        guard case .tags(let bytes)? = try rendered(nil, at: instant) else {
            return TagView.fileContents(of: Document())
        }
        return bytes
    }

    /// The tags document (nil) or a month's document as it was at `instant`, rendered; nil when the
    /// month had no document then.
    func rendered(_ month: Month?, at instant: Int64) throws(StoreError) -> RenderedDocument? {
        let path = DocumentName(month).relativePath
        let memo = path + "@" + String(instant)
        let status = store.passThroughStatus(path)
        let fileKey = status.map { FileKey(size: $0.size, seconds: $0.modificationSeconds, nanoseconds: $0.modificationNanoseconds, changeCount: 0) }
        if let fileKey, let hit = cache.withLock({ cache -> RenderedDocument? in
            guard let resolved = cache.resolved[memo], Self.same(resolved.file, fileKey) else { return nil }
            return cache.use(resolved.key)
        }) {
            return hit
        }
        guard let (times, version) = try timesAndVersion(of: month), let earliest = times.earliest, earliest <= instant else { return nil }
        let heads = times.heads(atOrBefore: instant)
        let key = path + "|" + heads.map(\.hexString).joined(separator: ",")
        if let hit = cache.withLock({ cache -> RenderedDocument? in
            // Resolved for the file version the times are of (the status taken above may be newer).
            if let fileKey = version {
                if cache.resolved.count >= 4096 { cache.resolved.removeAll(keepingCapacity: true) }
                cache.resolved[memo] = (fileKey, key)
            }
            return cache.use(key)
        }) {
            return hit
        }
        guard let document = try document(of: month) else { return nil }
        let past: Document
        do {
            past = try document.state(atHeads: heads)
        } catch {
            // The document changed since its times were taken: take them again next time.
            cache.withLock { _ = $0.times.removeValue(forKey: path) }
            throw .documentOperationFailed(file: path, operation: "reading its history (it changed while it was read; try again)", cause: error)
        }
        let modification = Int((times.latest(atOrBefore: instant) ?? 0) / 1000)
        let result: RenderedDocument
        if let month {
            result = render(month: month, past, modificationTime: modification)
        } else {
            result = .tags(TagView.fileContents(of: past))
        }
        cache.withLock { cache in
            cache.rendered[key] = result
            _ = cache.use(key)
            while cache.rendered.count > Self.renderedLimit, let oldest = cache.renderedUse.min(by: { $0.value < $1.value })?.key {
                cache.rendered[oldest] = nil
                cache.renderedUse[oldest] = nil
            }
        }
        return result
    }

    /// A month's records as the live view renders them (`MonthReplicas.monthView`), from a past state.
    private func render(month: Month, _ document: Document, modificationTime: Int) -> RenderedDocument {
        var records: [(id: String, object: ObjectID, startTime: Int64?)] = []
        for key in document.keys(of: .root) {
            guard let object = RecordView.object(key, in: document) else { continue }
            records.append((key, object, RecordView.startTime(of: object, in: document)))
        }
        let names = RecordNaming.names(for: records.map { ($0.id, $0.startTime) }, timeZone: store.timeZone)
        var files: [RecordFile] = []
        var images: [String] = []
        for (record, name) in zip(records, names) {
            let contents = JSONWriter.pretty(RecordView.json(id: record.id, record: record.object, in: document))
            files.append(RecordFile(name: name, id: record.id, contents: contents, modificationTime: modificationTime))
            for image in RecordView.images(of: record.object, in: document)
            where !image.contains("/") && image != ".." && image != "." && !image.hasSuffix(".json") {
                if let status = store.passThroughStatus(month.folderPath + "/" + image), !status.isDirectory { images.append(image) }
            }
        }
        files.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return .month(MonthSnapshot(files: files, images: Array(Set(images)).sorted()))
    }
}
