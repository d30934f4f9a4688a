import MinutaStore
import AutomergeKit

/// Writes a store's documents out in the legacy JSON layout (seed 001): the rollback path of a
/// migration. `DIR/tags.json` holds every tag; each record becomes
/// `DIR/records/YYYY/MM/YYYY-MM-DD_HHMMSS.json` in the folder of the month document that holds it,
/// named and laid out as the mount shows it (dates ISO 8601 UTC, a text comment as a string);
/// the images of each month folder are copied beside them.
///
/// The store is only read. Conflict copies waiting beside a document are merged in memory, so
/// the export holds everything any device wrote.
public enum LegacyExporter {
    public struct Summary: Sendable, Equatable {
        public var tags = 0
        public var records = 0
        public var runningTimers = 0
        public var images = 0
        /// Conflict copies merged in memory (the store still has them).
        public var conflictCopies = 0
        /// Records without a usable startTime: written as `<id>.json`, which the legacy app cannot read.
        public var recordsWithoutStartTime = 0
        /// Whether the store has a tags document (or a conflict copy of one); without, `tags.json`
        /// lists no tags.
        public var hasTagsDocument = true
        /// Hidden folders an export to the same DIR left when it was killed, removed by this one.
        public var leftoversRemoved: [String] = []
    }

    /// The start of the hidden folder an export into `target` writes before renaming it:
    /// `.DIR.minutafs-export-` beside DIR, then random hex.
    static func temporaryPrefix(for target: String) -> String {
        "." + BackingFiles.lastComponent(target) + ".minutafs-export-"
    }

    /// Exports the store at `storePath` into `destination`, which must not exist or be empty, and
    /// must not be inside the store.
    ///
    /// - Throws: ``StoreError/legacyStore(_:)`` for a store a migration did not finish (month
    ///   documents and `tags.json`, but no `tags.automerge`): its documents lack the tags.
    public static func export(storePath: String, to destination: String, timeZone: StoreTimeZone) throws(StoreError) -> Summary {
        let store = BackingFiles.absolutePath(storePath)
        let target = BackingFiles.absolutePath(destination)
        guard BackingFiles.status(store)?.isDirectory == true else { throw .notFound(storePath) }
        let hasMonths = try !MigrationVerification.documentMonths(store).isEmpty
        let hasTags = BackingFiles.status(store + "/" + DocumentName.tagsPath)?.isRegularFile == true
        guard hasTags || hasMonths else {
            throw .notAStore(storePath)
        }
        // Half migrated: a run of `migrate` wrote month documents and stopped before tags.automerge.
        guard hasTags || BackingFiles.status(store + "/tags.json") == nil else { throw .legacyStore(storePath) }
        guard !BackingFiles.isPath(target, inside: store) else {
            throw .invalidName(destination + " (inside the store; export to a folder outside it)")
        }
        if let status = BackingFiles.status(target) {
            guard status.isDirectory else { throw .alreadyExists(destination) }
            guard try BackingFiles.listDirectory(target).isEmpty else { throw .notEmpty(destination) }
        }
        // Written into a hidden folder beside DIR and renamed to DIR at the end (over DIR when it
        // is an empty folder): a failed export leaves no half-written DIR, and is removed.
        try BackingFiles.makeDirectories(BackingFiles.parentPath(target))
        // A killed export into DIR left its hidden folder: only this command makes such names.
        var leftovers: [String] = []
        for name in try BackingFiles.listDirectory(BackingFiles.parentPath(target)) where name.hasPrefix(temporaryPrefix(for: target)) {
            let path = BackingFiles.parentPath(target) + "/" + name
            guard BackingFiles.status(path)?.isDirectory == true else { continue }
            BackingFiles.removeTree(path)
            leftovers.append(path)
        }
        var random = SystemRandomNumberGenerator()
        let temporary = BackingFiles.parentPath(target) + "/" + temporaryPrefix(for: target)
            + String(UInt64.random(in: 0...UInt64.max, using: &random), radix: 16)
        try BackingFiles.makeDirectory(temporary)
        var summary: Summary
        do {
            summary = try write(store: store, into: temporary, timeZone: timeZone)
            summary.leftoversRemoved = leftovers
            try BackingFiles.syncDirectory(temporary)
            try BackingFiles.move(temporary, to: target)
        } catch {
            BackingFiles.removeTree(temporary)
            throw error
        }
        return summary
    }

    /// Writes the export of `store` into the folder `target`, which exists and is empty.
    private static func write(store: String, into target: String, timeZone: StoreTimeZone) throws(StoreError) -> Summary {
        var summary = Summary()
        let loadedTags = try loadMerged(store, relative: DocumentName.tagsPath, summary: &summary)
        summary.hasTagsDocument = loadedTags != nil
        let tags = loadedTags ?? Document()
        let tagList = TagView.tags(in: tags)
        summary.tags = tagList.count
        // Root keys that are not tags (`"version": 3` of the legacy tags.json) go back beside "tags".
        var members: [(key: String, value: JSONValue)] = [("tags", .array(tagList.map { TagView.json($0, in: tags) }))]
        for key in tags.keys(of: .root) where !key.utf8.elementsEqual("tags".utf8) {
            guard let value = tags.value(of: .root, key: key) else { continue }
            if case .object(_, .map) = value { continue }
            members.append((key, TypedValue.json(value, in: tags)))
        }
        try BackingFiles.writeNewFile(JSONWriter.pretty(.object(members)), to: target + "/tags.json")

        for month in try monthFolders(store) {
            let folder = target + "/" + month.folderPath
            if let document = try loadMerged(store, relative: month.documentPath, summary: &summary) {
                var records: [(id: String, object: ObjectID, startTime: Int64?)] = []
                for key in document.keys(of: .root) {
                    guard let object = RecordView.object(key, in: document) else { continue }
                    records.append((key, object, RecordView.startTime(of: object, in: document)))
                }
                let names = RecordNaming.names(for: records.map { ($0.id, $0.startTime) }, timeZone: timeZone)
                if !records.isEmpty { try BackingFiles.makeDirectories(folder) }
                for (record, name) in zip(records, names) {
                    try BackingFiles.writeNewFile(JSONWriter.pretty(RecordView.json(id: record.id, record: record.object, in: document)), to: folder + "/" + name)
                    summary.records += 1
                    if record.startTime == nil { summary.recordsWithoutStartTime += 1 }
                    if document.value(of: record.object, key: RecordField.endTime.key) == nil { summary.runningTimers += 1 }
                }
            }
            let source = store + "/" + month.folderPath
            guard BackingFiles.status(source)?.isDirectory == true else { continue }
            for name in try BackingFiles.listDirectory(source) {
                guard !PassThroughFiles.isHidden(name), !name.hasSuffix(".json"), !name.hasPrefix("."),
                      BackingFiles.status(source + "/" + name)?.isRegularFile == true else { continue }
                try BackingFiles.makeDirectories(folder)
                try BackingFiles.copyFile(from: source + "/" + name, to: folder + "/" + name)
                summary.images += 1
            }
        }
        return summary
    }

    /// The document at `relative` with every conflict copy beside it merged in; `nil` when there
    /// is no such document and no copy.
    static func loadMerged(_ store: String, relative: String, summary: inout Summary) throws(StoreError) -> Document? {
        let path = store + "/" + relative
        var document: Document?
        if let status = BackingFiles.status(path) {
            // A folder or anything else where the document belongs is not skipped: the export would lack it.
            guard status.isRegularFile else { throw .unloadableDocument(file: relative, reason: .notARegularFile) }
            document = try Migration.load(path, relative: relative, actor: .random())
        }
        let folder = BackingFiles.parentPath(path)
        let primaryName = BackingFiles.lastComponent(path)
        for name in try BackingFiles.listDirectory(folder) {
            guard let match = ConflictCopyName.match(name), match.primaryName == primaryName,
                  BackingFiles.status(folder + "/" + name)?.isRegularFile == true else { continue }
            let copyRelative = BackingFiles.parentPath(relative) == "." ? name : BackingFiles.parentPath(relative) + "/" + name
            let copy = try Migration.load(folder + "/" + name, relative: copyRelative, actor: .random())
            if document == nil {
                document = copy
            } else {
                do { try document?.merge(copy) } catch { throw .documentOperationFailed(file: copyRelative, operation: "merging this conflict copy", cause: error) }
            }
            summary.conflictCopies += 1
        }
        return document
    }

    /// Months with a document, a conflict copy of one, or an image folder.
    static func monthFolders(_ store: String) throws(StoreError) -> [Month] {
        let records = store + "/records"
        guard BackingFiles.status(records)?.isDirectory == true else { return [] }
        var result = Set<Month>()
        for year in try BackingFiles.listDirectory(records) where BackingFiles.status(records + "/" + year)?.isDirectory == true {
            for name in try BackingFiles.listDirectory(records + "/" + year) {
                if let month = Month(yearName: year, documentName: name) {
                    result.insert(month)
                } else if let match = ConflictCopyName.match(name), match.primaryName != DocumentName.tagsPath,
                          let month = Month(yearName: year, documentName: match.primaryName) {
                    result.insert(month)
                } else if let month = Month(yearName: year, monthName: name), BackingFiles.status(records + "/" + year + "/" + name)?.isDirectory == true {
                    result.insert(month)
                }
            }
        }
        return result.sorted()
    }
}
