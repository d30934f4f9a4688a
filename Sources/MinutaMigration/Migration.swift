import MinutaStore
import AutomergeKit

/// Converts what ``LegacyStoreReader`` read into the store's documents (SPEC section 1):
/// `tags.automerge` keyed by tag id, and `records/YYYY/MM.automerge` keyed by record id, each
/// record in the month of its startTime in the store's time zone.
///
/// Preparing changes nothing on disk; ``write(includingTags:progress:)`` does, atomically,
/// document by document. Ids decide everything: a record or tag whose id is already in a document
/// with the same values is never written again, so running the migration twice adds nothing the
/// second time. One that is there with other values is handled by whether the store is migrated:
///
/// - Not yet (`tags.json` and no `tags.automerge`): the documents can only have come from a
///   migration run that failed or was stopped, since the mount refuses such a store. The legacy files are the truth,
///   and the record is replaced with their current values (in the month of its current start).
/// - Migrated: the documents are the truth (edited through the mount since). The record is left
///   as the document has it, reported, and the verification fails on it, so `--cleanup` never
///   removes a legacy file whose values are not in the documents.
public struct Migration: Sendable {
    /// What the migration found and did, in counts.
    public struct Summary: Sendable, Equatable {
        public var tagsAdded = 0
        /// Already in the tags document with the same values.
        public var tagsPresent = 0
        /// Already in the tags document with other values, left as they are.
        public var tagsKept = 0
        public var recordsAdded = 0
        public var recordsPresent = 0
        public var recordsKept = 0
        /// Already in a document (written by a failed or stopped run) with other values, replaced
        /// with the legacy file's values.
        public var recordsReplaced = 0
        /// In a document written by a failed or stopped run, but in no legacy file now: removed.
        public var recordsRemoved = 0
        /// Records without an endTime, among all legacy records.
        public var runningTimers = 0
        /// Image names the legacy records list.
        public var images = 0
        /// Images copied into another month folder because their record's month differs in the
        /// store's time zone from the folder its legacy file was in.
        public var imagesCopied = 0
        /// Documents that will be (or were) written.
        public var documentsWritten = 0
    }

    struct PreparedDocument: Sendable {
        var document: Document
        var changed: Bool
        var existed: Bool
    }

    public let storePath: String
    public let timeZone: StoreTimeZone
    public private(set) var summary = Summary()
    /// Ids of records and tags already in the documents with other values, left as they are.
    public private(set) var keptIDs: Set<RecordID> = []
    /// Whether the legacy files are the truth for this run: the store has `tags.json` and no
    /// `tags.automerge`, which the mount refuses, so every document in it was written by a
    /// migration run that failed or was stopped. Otherwise the documents may hold edits made
    /// through the mount, and they are kept.
    public private(set) var replacesEarlierRuns = false
    /// One line per thing worth telling (kept records, missing images).
    public private(set) var notes: [String] = []
    /// Records migrated as they are that the mount will refuse to save unchanged (an endTime
    /// before the startTime: `EINVAL`; a file over ``Store/maximumJSONFileSize`` as the mount
    /// shows it: `EFBIG`), one line each naming the legacy file, for the user to fix.
    public private(set) var unsaveableRecords: [String] = []
    var tags: PreparedDocument
    var months: [Month: PreparedDocument] = [:]
    /// Images to copy, relative to the store: (from, to).
    var imageCopies: [(from: String, to: String)] = []
    /// The targets of `imageCopies`, to plan each copy once.
    private var plannedImageTargets: Set<String> = []

    /// The ids of the tags `tags.automerge` held before this run.
    public var tagIDsInDocument: Set<RecordID> {
        Set(tags.document.keys(of: .root).filter { key in
            if case .object(_, .map)? = tags.document.value(of: .root, key: key) { true } else { false }
        }.map { RecordID($0) })
    }

    /// Whether writing would change anything in the store.
    public var hasChanges: Bool {
        tags.changed || !tags.existed || months.values.contains { $0.changed } || !imageCopies.isEmpty
    }

    /// Builds the documents in memory: loads the ones the store has, adds what they lack.
    ///
    /// - Parameters:
    ///   - progress: called with (records done, records in all).
    /// - Throws: ``StoreError`` when an existing document cannot be loaded (the migration must not
    ///   guess around a damaged document), or a value cannot be stored.
    public static func prepare(
        storePath: String, contents: LegacyStoreContents, timeZone: StoreTimeZone, actor: ActorID = .random(),
        progress: (Int, Int) -> Void = { _, _ in }
    ) throws(StoreError) -> Migration {
        var migration = Migration(storePath: storePath, timeZone: timeZone, tags: PreparedDocument(document: Document(actor: actor), changed: false, existed: false))
        try migration.loadDocuments(actor: actor)
        migration.replacesEarlierRuns = !migration.tags.existed && contents.hasTagsFile
        try migration.addTags(contents.tags)
        try migration.addTagsFileFields(contents.tagsFileFields)
        try migration.addRecords(contents.records, actor: actor, progress: progress)
        for key in Array(migration.months.keys) where migration.months[key]?.changed == true {
            migration.months[key]?.document.commit(message: "minutafs migrate")
        }
        if migration.tags.changed { migration.tags.document.commit(message: "minutafs migrate") }
        migration.summary.documentsWritten = migration.months.values.filter(\.changed).count + (migration.tags.changed || !migration.tags.existed ? 1 : 0)
        return migration
    }

    private mutating func loadDocuments(actor: ActorID) throws(StoreError) {
        let tagsPath = storePath + "/" + DocumentName.tagsPath
        if BackingFiles.status(tagsPath)?.isRegularFile == true {
            tags = PreparedDocument(document: try Self.load(tagsPath, relative: DocumentName.tagsPath, actor: actor), changed: false, existed: true)
        }
        let records = storePath + "/records"
        guard BackingFiles.status(records)?.isDirectory == true else { return }
        for year in try BackingFiles.listDirectory(records) where BackingFiles.status(records + "/" + year)?.isDirectory == true {
            for name in try BackingFiles.listDirectory(records + "/" + year) where name.hasSuffix(".automerge") {
                guard let month = Month(yearName: year, documentName: name) else { continue }
                let document = try Self.load(storePath + "/" + month.documentPath, relative: month.documentPath, actor: actor)
                months[month] = PreparedDocument(document: document, changed: false, existed: true)
            }
        }
    }

    /// Loads a document of the store. One that does not load (an empty file included: a sync tool
    /// may still be writing it) stops the command, and is never written over (SPEC 5a).
    static func load(_ path: String, relative: String, actor: ActorID) throws(StoreError) -> Document {
        let bytes: [UInt8]
        do { bytes = try BackingFiles.read(path) } catch {
            if case .system(_, _, let code) = error { throw .unloadableDocument(file: relative, reason: .cannotRead(errno: code)) }
            throw error
        }
        guard !bytes.isEmpty else { throw .unloadableDocument(file: relative, reason: .empty) }
        let loaded: Document
        do {
            var document = try Document.load(bytes)
            document.setActor(actor)
            loaded = document
        } catch {
            throw .unloadableDocument(file: relative, reason: .format(error))
        }
        if let reason = loaded.unappliedChangesReason { throw .unloadableDocument(file: relative, reason: reason) }
        return loaded
    }

    private mutating func addTags(_ legacyTags: [LegacyTag]) throws(StoreError) {
        var existing: [RecordID: String] = [:]
        for key in tags.document.keys(of: .root) { existing[RecordID(key)] = key }
        for tag in legacyTags {
            if let key = existing[RecordID(tag.id)] {
                if let stored = LegacyTag(key: key, in: tags.document), tag.hasSameValues(as: stored) {
                    summary.tagsPresent += 1
                } else {
                    summary.tagsKept += 1
                    keptIDs.insert(RecordID(tag.id))
                    notes.append("tags.json: tag \(tag.id) (\(tag.name)) is already in tags.automerge with other values; kept those")
                }
                continue
            }
            do {
                _ = try tag.write(into: &tags.document)
            } catch {
                throw Self.writeFailure(error, file: "tags.json", operation: "storing tag \(tag.id)")
            }
            existing[RecordID(tag.id)] = tag.id
            tags.changed = true
            summary.tagsAdded += 1
        }
    }

    /// Keys of `tags.json` beside `"tags"` become root keys of the tags document with their JSON
    /// types; the tags view ignores a root key that is not a map, so the mount never shows them
    /// as tags and never removes them, and `export` writes them back.
    private mutating func addTagsFileFields(_ fields: [String: JSONValue]) throws(StoreError) {
        for key in fields.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let value = fields[key] else { continue }
            if let stored = tags.document.value(of: .root, key: key) {
                if StoredFields.same([key: value], [key: TypedValue.json(stored, in: tags.document)]) { continue }
                guard replacesEarlierRuns else {
                    notes.append("tags.json: \"\(key)\" is already in tags.automerge with another value; kept that, so this run cannot be verified")
                    continue
                }
            }
            do {
                try ObjectEditor.write(try TypedValue.desired(value, field: key), forKey: key, in: .root, document: &tags.document)
            } catch {
                throw Self.writeFailure(error, file: "tags.json", operation: "storing \"\(key)\"")
            }
            tags.changed = true
        }
    }

    /// Notes a record the mount would refuse to save as it is shown (``unsaveableRecords``).
    private mutating func checkSaveable(_ entry: LegacyStoreContents.Entry, key: String, in month: Month) {
        let record = entry.record
        if let endTime = record.endTime, endTime < record.startTime {
            unsaveableRecords.append("\(entry.file): record \(record.id) ends before it starts (endTime \(ISO8601.string(milliseconds: endTime)) is before startTime \(ISO8601.string(milliseconds: record.startTime))); migrated as it is, but the mount refuses every save of its file (EINVAL) until a save sets endTime after startTime")
        }
        // Only a record with a large value can render over the limit: render just those.
        let limit = Store.maximumJSONFileSize
        let large = (record.comment?.utf8.count ?? 0) > limit / 8
            || (!record.otherFields.isEmpty && JSONWriter.pretty(.object(record.otherFields.map { ($0.key, $0.value) })).count > limit / 8)
        guard large, let document = months[month]?.document, let object = RecordView.object(key, in: document) else { return }
        let size = JSONWriter.pretty(RecordView.json(id: key, record: object, in: document)).count
        if size > limit {
            unsaveableRecords.append("\(entry.file): record \(record.id) is \(size) bytes as the mount shows it, over the \(limit >> 20) MiB the mount takes for a save; migrated as it is, but the mount refuses every save of its file (EFBIG) that does not make it smaller (shorten its comment)")
        }
    }

    private mutating func addRecords(_ entries: [LegacyStoreContents.Entry], actor: ActorID, progress: (Int, Int) -> Void) throws(StoreError) {
        // Where every record already in a document is, by upper-cased id.
        var located: [RecordID: (month: Month, key: String)] = [:]
        for (month, prepared) in months {
            for key in prepared.document.keys(of: .root) { located[RecordID(key)] = (month, key) }
        }
        for (index, entry) in entries.enumerated() {
            defer { progress(index + 1, entries.count) }
            let record = entry.record
            summary.images += record.images.count
            if record.endTime == nil { summary.runningTimers += 1 }
            var month = entry.folder
            var replacing = false
            if let (existingMonth, key) = located[RecordID(record.id)] {
                month = existingMonth
                if let stored = LegacyRecord(key: key, in: months[existingMonth]?.document ?? Document()), record.hasSameValues(as: stored) {
                    summary.recordsPresent += 1
                } else if !replacesEarlierRuns {
                    summary.recordsKept += 1
                    keptIDs.insert(RecordID(record.id))
                    notes.append("\(entry.file): record \(record.id) is already in \(existingMonth.documentPath) with other values (changed since the migration); kept those, so this run cannot be verified")
                } else {
                    do {
                        try months[existingMonth]?.document.delete(forKey: key)
                    } catch {
                        throw .documentOperationFailed(file: existingMonth.documentPath, operation: "replacing record \(key)", cause: error)
                    }
                    months[existingMonth]?.changed = true
                    located[RecordID(record.id)] = nil
                    replacing = true
                    summary.recordsReplaced += 1
                    notes.append("\(entry.file): record \(record.id) was in \(existingMonth.documentPath) with other values from an earlier run that did not finish; replaced them with this file's values")
                }
            }
            if located[RecordID(record.id)] == nil {
                month = timeZone.month(ofMilliseconds: record.startTime) ?? entry.folder
                // Changed where it is held: a copy taken out and stored back would copy the whole
                // document at every record (its storage is shared until the copy is written).
                let empty = PreparedDocument(document: Document(actor: actor), changed: false, existed: false)
                do {
                    _ = try record.write(into: &months[month, default: empty].document)
                } catch {
                    throw Self.writeFailure(error, file: entry.file, operation: "storing record \(record.id)")
                }
                months[month, default: empty].changed = true
                located[RecordID(record.id)] = (month, record.id)
                if !replacing { summary.recordsAdded += 1 }
            }
            planImages(of: record, from: entry, to: month)
            if let place = located[RecordID(record.id)] { checkSaveable(entry, key: place.key, in: place.month) }
        }
        guard replacesEarlierRuns else { return }
        // Not migrated yet: a record a failed run wrote whose legacy file is gone (the user kept
        // the other of two files with one id, say) goes too, so the documents hold the legacy files.
        let legacyIDs = Set(entries.map { RecordID($0.record.id) })
        for (id, place) in located where !legacyIDs.contains(id) {
            do {
                try months[place.month]?.document.delete(forKey: place.key)
            } catch {
                throw .documentOperationFailed(file: place.month.documentPath, operation: "removing record \(place.key)", cause: error)
            }
            months[place.month]?.changed = true
            summary.recordsRemoved += 1
            notes.append("\(place.month.documentPath): record \(place.key) from an earlier run that did not finish is in no legacy file now; removed it")
        }
    }

    /// After a verification that failed: removes the `tags.automerge` this run wrote into a store
    /// that was not migrated (``replacesEarlierRuns``), so the store stays unmigrated and a rerun
    /// replaces what this run wrote. Returns whether it removed it; does nothing for a store that
    /// was migrated before.
    public func unmarkMigrated() throws(StoreError) -> Bool {
        let path = storePath + "/" + DocumentName.tagsPath
        guard replacesEarlierRuns, BackingFiles.status(path)?.isRegularFile == true else { return false }
        try BackingFiles.remove(path)
        return true
    }

    /// Images stay where they are; one whose record now lives in another month's folder is copied
    /// there (never moved: the legacy layout stays whole for a rollback).
    private mutating func planImages(of record: LegacyRecord, from entry: LegacyStoreContents.Entry, to month: Month) {
        for image in record.images {
            let target = month.folderPath + "/" + image
            guard BackingFiles.status(storePath + "/" + target)?.isRegularFile != true else { continue }
            let source = entry.folder.folderPath + "/" + image
            if BackingFiles.status(storePath + "/" + source)?.isRegularFile == true {
                if plannedImageTargets.insert(target).inserted {
                    imageCopies.append((source, target))
                    summary.imagesCopied += 1
                }
            } else {
                notes.append("\(entry.file): image \(image) is not in \(entry.folder.folderPath)/ (it was missing before the migration)")
            }
        }
    }

    /// Writes what changed: images copied first, then each month document, then (when
    /// `includingTags`, or when it already existed) `tags.automerge`. A store counts as migrated
    /// once it has `tags.automerge`, so a migration with unreadable legacy files passes
    /// `includingTags: false` and the store stays unmigrated for `mount`.
    ///
    /// - Parameter progress: called with (documents written, documents to write), after each one.
    /// - Returns: how many documents were written.
    @discardableResult
    public func write(includingTags: Bool, progress: (Int, Int) -> Void = { _, _ in }) throws(StoreError) -> Int {
        for copy in imageCopies {
            let target = storePath + "/" + copy.to
            guard BackingFiles.status(target) == nil else { continue }
            try BackingFiles.makeDirectories(BackingFiles.parentPath(target))
            try BackingFiles.copyFile(from: storePath + "/" + copy.from, to: target)
        }
        let writeTags = includingTags ? (tags.changed || !tags.existed) : (tags.changed && tags.existed)
        let changedMonths = months.filter { $0.value.changed }.sorted { $0.key < $1.key }
        let total = changedMonths.count + (writeTags ? 1 : 0)
        var done = 0
        for (month, prepared) in changedMonths {
            var document = prepared.document
            let path = storePath + "/" + month.documentPath
            try BackingFiles.makeDirectories(BackingFiles.parentPath(path))
            let bytes: [UInt8]
            do { bytes = try document.save() } catch { throw .documentOperationFailed(file: month.documentPath, operation: "save", cause: error) }
            try BackingFiles.writeAtomically(bytes, to: path)
            done += 1
            progress(done, total)
        }
        if writeTags {
            var document = tags.document
            let bytes: [UInt8]
            do { bytes = try document.save() } catch { throw .documentOperationFailed(file: DocumentName.tagsPath, operation: "save", cause: error) }
            try BackingFiles.writeAtomically(bytes, to: storePath + "/" + DocumentName.tagsPath)
            done += 1
            progress(done, total)
        }
        return done
    }
}

extension Migration {
    /// What writing a legacy record or tag into a document threw, as the store says it: a value the
    /// record model refuses (`RecordInputError`), or the engine's refusal.
    static func writeFailure(_ error: any Error, file: String, operation: String) -> StoreError {
        if let input = error as? RecordInputError { return .rejected(file: file, line: nil, column: nil, reason: input) }
        if let engine = error as? AutomergeError { return .documentOperationFailed(file: file, operation: operation, cause: engine) }
        return .documentOperationFailed(file: file, operation: operation, cause: AutomergeError(.invalidArgument, "\(error)"))
    }
}
