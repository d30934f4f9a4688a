import AutomergeKit
import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The store's document files, read and replaced without ever destroying what the store has not read or
/// merged (SPEC 5a).
///
/// - A file that does not load is never written over, renamed, truncated or deleted. The document
///   keeps the state last read, and changes to it are refused (``StoreError/unloadableDocument(file:reason:)``)
///   until a readable version arrives. Changes the store holds that the file may lack are written
///   beside it as a conflict copy, `MM (minutafs conflicted copy YYYY-MM-DD).automerge`.
/// - A new version is swapped in with `renameat2(RENAME_EXCHANGE)`, and the file it displaced is
///   checked: if a sync tool put something there after the store merged the file, it is merged and
///   written again; if it does not load, it is swapped back. So no window remains in which another
///   writer's version is replaced unmerged.
///
/// It owns no document: callers hand it the `LoadedDocument` they hold (checked out of the store's
/// state, `MonthReplicas+CheckOut.swift`) and it reads, merges and writes that document's file. It keeps what
/// it learns of files that do not load (`UnreadableFiles`) and of fields merges changed
/// (`supersededValues`), and notes what happened to files in the store's events.
final class DocumentFiles: Sendable {
    /// The backing folder, absolute.
    let path: String
    /// The actor of the changes this store commits.
    let actor: ActorID
    let folder: BackingFolder
    /// Document files that do not load (SPEC 5a).
    let unreadable: UnreadableFiles
    let events: StoreEvents
    /// What the mount showed of record fields before merges changed them (`Edits/SupersededValues.swift`).
    /// A lock of its own, taken alone or inside the store's `state`; only this type takes it (the
    /// store asks through `publishMerges`, `omission` and `reconcile`).
    private let supersededValues = Mutex(SupersededValues())
    /// Seconds since the epoch: the time of the changes committed and of conflict copies' names.
    private let clock: @Sendable () -> Int

    init(folder: BackingFolder, actor: ActorID, unreadable: UnreadableFiles, events: StoreEvents, clock: @escaping @Sendable () -> Int) {
        self.path = folder.path
        self.folder = folder
        self.actor = actor
        self.unreadable = unreadable
        self.events = events
        self.clock = clock
    }

    func absolute(_ relative: String) -> String { path + "/" + relative }

    private func now() -> Int { clock() }

    /// Merges `other` into `loaded` (the document at `relative`); for a month document that gains
    /// changes, remembers the fields the merge changed, as the mount showed them before.
    /// - Throws: ``AutomergeError/Kind/unsavableValue`` (and `loaded` is unchanged) when the merged
    ///   document could not be saved whole (changes whose times lie at both ends of `Int64`): what
    ///   brought those changes (a conflict copy, another device's version) is left as it is, unmerged,
    ///   rather than the document taking in what it could never write (SPEC 5a).
    func merge(_ other: Document, into loaded: inout LoadedDocument, relative: String) throws(AutomergeError) {
        try loaded.document.requireSavable(merging: other)
        loaded.noteMerged()
        let fields: (Document) -> [RecordID: [(key: String, value: JSONValue)]]
        // The objects of a document by id, to name whose value a merge shows.
        let objects: (Document) -> [RecordID: ObjectID]
        switch DocumentName(relativePath: relative) {
        case .month?:
            fields = SupersededValues.fields(of:)
            objects = { document in
                var objects: [RecordID: ObjectID] = [:]
                for key in document.keys(of: .root) { objects[RecordID(key)] = RecordView.object(key, in: document) }
                return objects
            }
        case .tags?:
            fields = SupersededValues.tagFields(of:)
            objects = { document in
                var objects: [RecordID: ObjectID] = [:]
                for tag in TagView.tags(in: document) { objects[RecordID(tag.id)] = tag.object }
                return objects
            }
        case nil:
            try loaded.document.merge(other)
            return
        }
        guard !other.heads.allSatisfy(loaded.document.containsChange) else {
            try loaded.document.merge(other)
            return
        }
        let before = fields(loaded.document)
        try loaded.document.merge(other)
        let after = fields(loaded.document)
        let now = now()
        var changes = SupersededValues.changes(before: before, after: after)
        guard !changes.isEmpty else { return }
        // Whose value a field shows now: the actor of its winning operation (of the object, for a new one).
        let byID = objects(loaded.document)
        for index in changes.indices {
            guard let found = byID[changes[index].id] else { continue }
            let actor = changes[index].field.flatMap { loaded.document.values(of: found, key: $0).last?.id.actor } ?? found.creatingOperation?.actor
            changes[index].device = actor.map { String($0.hexString.prefix(8)) }
        }
        supersededValues.withLock { $0.noteMerge(changes, now: now) }
    }


    /// What is at a document's path.
    enum DocumentFileContents {
        case absent
        case unreadable(UnreadableReason, identity: BackingFiles.Identity?)
        case loaded(Document, identity: BackingFiles.Identity, bytes: [UInt8])
    }

    /// Reads and loads the document file at `relative` (an empty file does not count as a document).
    func readDocumentFile(_ relative: String) -> DocumentFileContents {
        // Read from the folder the store was opened on, wherever it went (`BackingFolder.readingPath`).
        let file = folder.readingPath + "/" + relative
        // A symbolic link is never followed (nothing outside the store is reached), and never replaced
        // either: like a folder or a FIFO at a document's name, it is a file minutafs cannot read (SPEC 5b).
        guard let status = BackingFiles.status(file) else { return .absent }
        guard status.isRegularFile else {
            return .unreadable(status.isSymbolicLink ? .symbolicLink : .notARegularFile, identity: status.identity)
        }
        let read: (bytes: [UInt8], identity: BackingFiles.Identity)
        do {
            read = try BackingFiles.readWithIdentity(file)
        } catch {
            switch error {
            case .unloadableDocument(_, let reason):
                // Replaced by a FIFO, socket or device between the `lstat` and the open.
                return .unreadable(reason, identity: status.identity)
            case .system(_, _, let code):
                return code == .noSuchFileOrDirectory ? .absent : .unreadable(.cannotRead(errno: code), identity: status.identity)
            default:
                return .unreadable(.cannotRead(errno: .ioError), identity: status.identity)
            }
        }
        guard !read.bytes.isEmpty else { return .unreadable(.empty, identity: read.identity) }
        do {
            var document = try Document.load(read.bytes)
            if let reason = document.unappliedChangesReason { return .unreadable(reason, identity: read.identity) }
            document.setActor(actor)
            return .loaded(document, identity: read.identity, bytes: read.bytes)
        } catch {
            return .unreadable(.format(error), identity: read.identity)
        }
    }

    // MARK: Fields merges changed

    /// The merges noted so far are shown from `instant` on (see ``SupersededValues/publish(at:)``).
    func publishMerges(at instant: ContinuousClock.Instant) {
        supersededValues.withLock { $0.publish(at: instant) }
    }

    /// What a `tags.json` save that leaves out tag `id` does with it (``SupersededValues/omission(of:reading:now:)``).
    func omission(of id: RecordID, reading: WriterRead, now: Int) -> SupersededValues.Omission {
        supersededValues.withLock { $0.omission(of: id, reading: reading, now: now) }
    }

    /// The fields a save of record (or tag) `id` writes, given what its writer read, and what became of
    /// each field a merge had changed (``SupersededValues/reconcile(_:current:recordID:reading:now:)``);
    /// nil when no merge changed any field (the save writes what it was given).
    func reconcile(
        _ written: [(key: String, value: JSONValue)], current: [(key: String, value: JSONValue)], recordID id: RecordID,
        reading: WriterRead, now: Int
    ) -> (fields: [(key: String, value: JSONValue)], outcomes: [SupersededValues.Outcome])? {
        supersededValues.withLock { values in
            values.isEmpty ? nil : values.reconcile(written, current: current, recordID: id, reading: reading, now: now)
        }
    }

    // MARK: Unreadable documents

    /// Notes that the file at `relative` does not load (once per version of the file).
    func markUnreadable(_ relative: String, reason: UnreadableReason, identity: BackingFiles.Identity?) {
        let since = now()
        let isNew = unreadable.update(relative) { known -> Bool in
            if let known, known.identity == identity, known.reason == reason { return false }
            var entry = known ?? UnreadableDocument(reason: reason, identity: identity, since: since)
            entry.reason = reason
            entry.identity = identity
            known = entry
            return true
        }
        guard isNew else { return }
        events.note("\(relative): cannot be loaded: \(reason). minutafs leaves the file as it is; \(Self.shownName(of: relative)) is read-only until a readable version replaces it")
    }

    /// Notes that the file at `relative` loads again.
    func clearUnreadable(_ relative: String) {
        let wasUnreadable = unreadable.update(relative) { known -> Bool in
            defer { known = nil }
            return known != nil
        }
        guard wasUnreadable else { return }
        events.note("\(relative): readable again and merged; \(Self.shownName(of: relative)) is writable again")
    }

    /// The path the mount shows a document as: `records/2024/07` or `tags.json`.
    static func shownName(of relative: String) -> String {
        DocumentName(relativePath: relative)?.shownPath ?? String(relative.dropLast(".automerge".count))
    }

    /// What is known of the document at `relative` if its file is still the version found not to load
    /// (looked at now); nil when it loads, was never found unreadable, or was replaced since.
    func stillUnreadable(_ relative: String) -> UnreadableDocument? {
        unreadable.stillUnreadable(relative, identity: BackingFiles.status(folder.readingPath + "/" + relative)?.identity)
    }

    /// Throws if the document at `relative` is known not to load and its file is still that version.
    func requireReadableFile(_ relative: String) throws(StoreError) {
        if let known = stillUnreadable(relative) {
            throw .unloadableDocument(file: relative, reason: known.reason)
        }
    }

    /// Reads the document file at `relative`, noting whether it loads: one that does not is noted
    /// (`.minutafs/errors`, status), one that does (or is gone) clears that note.
    func readNotingUnreadable(_ relative: String) -> DocumentFileContents {
        let contents = readDocumentFile(relative)
        switch contents {
        case .absent, .loaded:
            clearUnreadable(relative)
        case .unreadable(let reason, let identity):
            markUnreadable(relative, reason: reason, identity: identity)
        }
        return contents
    }

    /// Whether the document at `relative` does not load: known not to (any version), or its file does not
    /// load now. Nothing is noted: what is put beside such a file goes to a conflict copy.
    func doesNotLoad(_ relative: String) -> Bool {
        if unreadable.isKnown(relative) { return true }
        if case .unreadable = readDocumentFile(relative) { return true }
        return false
    }

    /// Writes what `loaded` holds beyond the version of the file last read (this store's own saves,
    /// merged conflict copies) to a conflict copy beside the unreadable file, so that nothing exists
    /// only in memory. Once per set of heads.
    func preserveHeldChanges(of loaded: LoadedDocument, for relative: String, always: Bool = false) throws(StoreError) {
        let heads = Set(loaded.document.heads)
        guard loaded.document.changeCount > 0, always || heads != Set(loaded.lastReadHeads) else { return }
        if let known = unreadable[relative], known.preservedHeads == heads { return }
        let copy = try writeConflictCopy(of: loaded.document, for: relative)
        unreadable.update(relative) { known in
            known?.preservedIn = copy
            known?.preservedHeads = heads
        }
        events.note("\(relative): this mount's changes the unreadable file may lack are kept in \(copy)")
    }

    /// Writes `document` as `MM (minutafs conflicted copy YYYY-MM-DD).automerge` beside `relative`
    /// (merged into such a copy if one loads there already; another number if one does not load).
    /// Returns the copy's relative path.
    func writeConflictCopy(of document: Document, for relative: String) throws(StoreError) -> String {
        guard folder.isPresent else { throw .backingFolderGone(path) }
        let folder = BackingFiles.parentPath(relative)
        let base = String(BackingFiles.lastComponent(relative).dropLast(".automerge".count))
        let day = ISO8601.components(milliseconds: Int64(now()) * 1000)
        let date = "\(ISO8601.pad(day.year, 4))-\(ISO8601.pad(day.month, 2))-\(ISO8601.pad(day.day, 2))"
        // The primary's permissions, but always readable by its owner: a copy nobody can merge helps no one.
        let mode = BackingFiles.mode(ofExisting: absolute(relative)) | 0o600
        for number in 1...50 {
            let name = base + " (minutafs conflicted copy " + date + (number == 1 ? "" : " \(number)") + ").automerge"
            let copy = (folder == "." || folder.isEmpty ? "" : folder + "/") + name
            var merged = document
            let exists: Bool
            switch readDocumentFile(copy) {
            case .absent:
                exists = false
            case .unreadable:
                continue
            case .loaded(let existing, _, _):
                if document.heads.allSatisfy(existing.containsChange) { return copy }
                do { try merged.merge(existing) } catch { continue }
                exists = true
            }
            let written = try BackingFiles.writeTemporary(Self.loadableBytes(of: &merged), beside: absolute(copy), mode: mode, ownerOf: absolute(relative))
            if exists {
                // Our own copy, which loaded and is merged in: replacing it loses nothing.
                guard rename(written.path, absolute(copy)) == 0 else {
                    let code = errno
                    unlink(written.path)
                    throw .system(file: copy, operation: "rename", errno: Errno(rawValue: code))
                }
            } else if try !BackingFiles.renameWithoutReplacing(written.path, to: absolute(copy)) {
                // Someone made a file of that name a moment ago: try the next name.
                unlink(written.path)
                continue
            }
            try BackingFiles.syncDirectory(BackingFiles.parentPath(absolute(copy)), faults: self.folder.faults)
            return copy
        }
        throw .system(file: relative, operation: "write a conflict copy", errno: .fileExists)
    }

    // MARK: Merging what is on disk

    /// Merges the document file at `relative` into `loaded`. Returns the identity of the file merged
    /// (nil when there is none) and whether `loaded` gained changes. A file that does not load is
    /// noted, what `loaded` holds beyond it is preserved, and ``StoreError/unloadableDocument(file:reason:)``
    /// is thrown.
    func mergeFromDisk(_ loaded: inout LoadedDocument, _ relative: String) throws(StoreError) -> (identity: BackingFiles.Identity?, gained: Bool) {
        switch readDocumentFile(relative) {
        case .absent:
            return (nil, false)
        case .unreadable(let reason, let identity):
            markUnreadable(relative, reason: reason, identity: identity)
            try preserveHeldChanges(of: loaded, for: relative)
            throw .unloadableDocument(file: relative, reason: reason)
        case .loaded(let onDisk, let identity, let bytes):
            let before = loaded.document.changeCount
            do {
                try merge(onDisk, into: &loaded, relative: relative)
            } catch {
                // Loads, but holds a change this engine refuses to apply: as good as unreadable.
                markUnreadable(relative, reason: .format(error), identity: identity)
                try preserveHeldChanges(of: loaded, for: relative)
                throw .unloadableDocument(file: relative, reason: .format(error))
            }
            clearUnreadable(relative)
            let gained = loaded.document.changeCount > before
            loaded.lastReadHeads = onDisk.heads
            if loaded.document.changeCount == onDisk.changeCount {
                // The file holds everything we do: it is what we hold now.
                loaded.identity = identity
                loaded.savedChangeCount = loaded.document.changeCount
                loaded.savedBytes = bytes
            }
            return (identity, gained)
        }
    }

    // MARK: Saving

    /// Commits and writes a document if it has changes the file lacks; the file on disk, if another
    /// writer changed it, is merged first (never replaced). Returns whether it wrote.
    /// - Throws: ``StoreError/unloadableDocument(file:reason:)`` when the file there does not load
    ///   (it is left untouched, and what this store holds beyond it is kept in a conflict copy).
    @discardableResult
    func save(_ loaded: inout LoadedDocument, to relative: String) throws(StoreError) -> Bool {
        loaded.document.commit(time: Int64(now()))
        try folder.require()
        let status = BackingFiles.status(absolute(relative))
        if let known = unreadable.stillUnreadable(relative, identity: status?.identity) {
            try preserveHeldChanges(of: loaded, for: relative)
            throw .unloadableDocument(file: relative, reason: known.reason)
        }
        var expected: BackingFiles.Identity?
        if let status, status.identity == loaded.identity {
            expected = status.identity
        } else if status != nil {
            expected = try mergeFromDisk(&loaded, relative).identity
        }
        if let expected, expected == loaded.identity, loaded.document.changeCount == loaded.savedChangeCount {
            return false
        }
        try replaceDocumentFile(&loaded, relative, expected: expected)
        events.countSavedDocument()
        return true
    }

    /// Puts `loaded` at `relative`, where the file whose identity is `expected` (nil: none) is
    /// believed to be. See the extension's comment for how nothing unmerged is replaced.
    func replaceDocumentFile(_ loaded: inout LoadedDocument, _ relative: String, expected initial: BackingFiles.Identity?) throws(StoreError) {
        try folder.require()
        let file = absolute(relative)
        let folder = BackingFiles.parentPath(file)
        try BackingFiles.makeDirectories(folder)
        var expected = initial
        // Files swapped out whose changes `loaded` has merged: removed once a version with them is in place.
        var mergedAway: [String] = []
        for _ in 0..<16 {
            let (bytes, appended) = Self.bytesToWrite(&loaded, over: expected)
            let written = try BackingFiles.writeTemporary(bytes, beside: file, mode: BackingFiles.mode(ofExisting: file))
            let placement = try place(written.path, at: file, expected: expected, relative: relative)
            if case .notTheVersionMerged = placement {
                // Another version is there than the one merged (a file appeared, or was replaced): merge
                // it (anything that is not a document, a link included, makes the month unreadable and
                // the save fails), then write again.
                expected = try mergeFromDisk(&loaded, relative).identity
                continue
            }
            try BackingFiles.syncDirectory(folder, faults: self.folder.faults)
            if case .exchanged(let swappedOut) = placement {
                mergedAway.append(swappedOut)
                if try mergeDisplacedVersion(at: swappedOut, over: file, into: &loaded, relative, expected: expected, mergedAway: mergedAway) {
                    expected = written.identity
                    continue
                }
            }
            loaded.identity = written.identity
            loaded.savedChangeCount = loaded.document.changeCount
            loaded.savedBytes = bytes
            loaded.appendedBytes = appended
            // No fsync of the folder for these: a removal lost in a crash only brings a file back
            // that the start-up sweep merges into its document (all it holds is in it) and removes.
            for path in mergedAway { unlink(path) }
            return
        }
        throw .system(file: relative, operation: "replace (the file kept changing while it was written)", errno: .resourceTemporarilyUnavailable)
    }

    /// Where a save's temporary file went (`place`).
    private enum Placement {
        /// Exchanged with the version that was there, which is now at the temporary file's path.
        case exchanged(swappedOut: String)
        /// Renamed into place: there was no file, or the file system cannot exchange and the file was the
        /// version merged.
        case renamed
        /// Not placed (and removed): the file there is not the version merged (`expected`).
        case notTheVersionMerged
    }

    /// Puts the written temporary file at `file`: by exchange when a version is expected there, so the
    /// one displaced can be looked at; without replacing anything when none is.
    private func place(_ temporary: String, at file: String, expected: BackingFiles.Identity?, relative: String) throws(StoreError) -> Placement {
        // (`unlink(temporary)` removes only our own temporary file, never renamed: nothing else is in it.)
        if expected == nil {
            guard try BackingFiles.renameWithoutReplacing(temporary, to: file) else {
                unlink(temporary)
                return .notTheVersionMerged
            }
            return .renamed
        }
        if try BackingFiles.exchange(temporary, file, faults: self.folder.faults) { return .exchanged(swappedOut: temporary) }
        // The file system cannot exchange: rename over the file if it is still the one merged.
        guard BackingFiles.status(file)?.identity == expected else {
            unlink(temporary)
            return .notTheVersionMerged
        }
        guard rename(temporary, file) == 0 else {
            let code = errno
            unlink(temporary)
            throw .system(file: relative, operation: "rename", errno: Errno(rawValue: code))
        }
        return .renamed
    }

    /// After an exchange: when the version displaced is not the one merged (someone replaced the file
    /// between the merge and the exchange), merges it into `loaded` and returns true (the save writes
    /// again); a displaced version that does not load is put back and the save fails.
    private func mergeDisplacedVersion(
        at swappedOut: String, over file: String, into loaded: inout LoadedDocument, _ relative: String,
        expected: BackingFiles.Identity?, mergedAway: [String]
    ) throws(StoreError) -> Bool {
        guard let displaced = BackingFiles.status(swappedOut), displaced.identity != expected else { return false }
        // What they put there is at `swappedOut` now.
        switch readDocumentFile(relativePath(of: swappedOut)) {
        case .loaded(let other, _, _):
            guard !other.heads.allSatisfy(loaded.document.containsChange) else { return false }
            do {
                try merge(other, into: &loaded, relative: relative)
            } catch {
                try putBack(swappedOut, over: file, loaded: &loaded, relative, reason: .format(error), identity: displaced.identity,
                            mergedAway: mergedAway.filter { $0 != swappedOut })
            }
            loaded.lastReadHeads = other.heads
            return true
        case .unreadable(let reason, let identity):
            try putBack(swappedOut, over: file, loaded: &loaded, relative, reason: reason, identity: identity,
                        mergedAway: mergedAway.filter { $0 != swappedOut })
        case .absent:
            return false
        }
    }

    /// The bytes that put `loaded` in a file whose identity is `expected`, and how many of them are
    /// appended change chunks. When the file is what `loaded` holds as `savedBytes`, the new changes'
    /// chunks are appended rather than the whole history encoded again, so a save costs what the change
    /// costs; past `appendLimit` appended bytes the document is written whole again (compacted).
    ///
    /// A document that cannot be saved whole (``Document/save()`` refuses: it was read from change
    /// chunks whose times lie at both ends of `Int64`) keeps appending past the limit, or is written as
    /// the change chunks of its history: bytes that load back, never a save that does not.
    static func bytesToWrite(_ loaded: inout LoadedDocument, over expected: BackingFiles.Identity?) -> (bytes: [UInt8], appended: Int) {
        guard let base = loaded.savedBytes, !base.isEmpty, let expected, expected == loaded.identity,
              loaded.savedChangeCount >= 0, loaded.savedChangeCount <= loaded.document.changeCount else {
            return (loadableBytes(of: &loaded.document), 0)
        }
        let chunks = loaded.document.changeChunks(afterFirst: loaded.savedChangeCount)
        if loaded.appendedBytes + chunks.count > appendLimit, let whole = try? loaded.document.save() { return (whole, 0) }
        return (base + chunks, loaded.appendedBytes + chunks.count)
    }

    /// The document's full save, or, when it cannot be saved whole (``Document/save()`` refuses), the
    /// change chunks of its whole history, which load back to the same document.
    static func loadableBytes(of document: inout Document) -> [UInt8] {
        if let whole = try? document.save() { return whole }
        return document.changeChunks(afterFirst: 0)
    }

    /// How many bytes of change chunks a store appends to a document file before it writes the
    /// file whole again: a few hundred small edits. Loading stays fast (each appended chunk is one
    /// change to apply), and the file stays close to its compact size.
    /// `MINUTAFS_APPEND_LIMIT` (bytes) overrides it, for benchmarks: 0 writes every save whole.
    static let appendLimit: Int = getenv("MINUTAFS_APPEND_LIMIT").flatMap { Int(String(cString: $0)) } ?? 64 << 10

    /// A file that does not load was swapped out by a save: swap it back, so its bytes are where they
    /// were, and keep what this store holds in a conflict copy instead. Always throws.
    private func putBack(
        _ swappedOut: String, over file: String, loaded: inout LoadedDocument, _ relative: String, reason: UnreadableReason,
        identity: BackingFiles.Identity?, mergedAway: [String]
    ) throws(StoreError) -> Never {
        guard try BackingFiles.exchange(swappedOut, file, faults: self.folder.faults) else {
            throw .system(file: relative, operation: "put back a file that does not load (it is at \(swappedOut))", errno: .ioError)
        }
        try BackingFiles.syncDirectory(BackingFiles.parentPath(file), faults: self.folder.faults)
        markUnreadable(relative, reason: reason, identity: identity)
        // Our version is at `swappedOut` now; the conflict copy takes its place. Always written here:
        // files merged away in this save are removed next, and their changes must be on disk first.
        try preserveHeldChanges(of: loaded, for: relative, always: true)
        unlink(swappedOut)
        for path in mergedAway { unlink(path) }
        throw .unloadableDocument(file: relative, reason: reason)
    }

    /// The store-relative path of an absolute path inside the store.
    func relativePath(of file: String) -> String {
        file.hasPrefix(path + "/") ? String(file.dropFirst(path.count + 1)) : file
    }

}
