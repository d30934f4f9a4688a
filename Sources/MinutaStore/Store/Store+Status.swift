import AutomergeKit

/// What the store has done, and the concurrent values it holds (`.minutafs/status`, `.minutafs/conflicts`).
extension Store {
    public struct Status: Sendable {
        public var documentsLoaded: Int
        public var documentsSaved: Int
        public var mergedCopies: Int
        public var lastMerge: String?
        public var rejectedWrites: Int
        /// Finished synchronization passes (`Synchronization/SynchronizationPasses.swift`).
        public var synchronizationPasses: Int
        /// Passes whose merge of conflict copies failed, and what the last one said.
        public var failedMerges: Int
        public var lastMergeFailure: String?
        /// Document files that do not load (SPEC 5a), in path order, each with why and where this
        /// store kept the changes it held that the file may lack.
        public var unreadableDocuments: [UnreadableDocumentStatus]
        /// Whether the backing folder was found moved, deleted or replaced (`Backing/BackingFolder.swift`).
        public var backingFolderGone = false
        /// Deferred work (a removal after its grace period, a file held while written) that failed after
        /// the program was told it succeeded; each one is in `.minutafs/errors`.
        public var failedDeferredWork = 0
    }

    /// A document file that does not load, for `.minutafs/status` and `minutafs check`.
    public struct UnreadableDocumentStatus: Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var reason: UnreadableReason
        /// The conflict copy holding this store's changes that the file may lack, if it held any.
        public var preservedIn: String?

        public var description: String {
            "\(file): cannot be loaded: \(reason); \(DocumentFiles.shownName(of: file)) is read-only until a readable version replaces it"
                + (preservedIn.map { "; this mount's changes are kept in \($0)" } ?? "")
        }
    }

    public func status() -> Status {
        let loaded = publishedViews.loadedDocumentCount
        let noted = events.snapshot
        let passes = synchronizationPasses.snapshot
        return Status(documentsLoaded: loaded, documentsSaved: noted.savedDocumentCount,
                      mergedCopies: noted.mergedCopyCount, lastMerge: noted.lastMerge, rejectedWrites: noted.rejectedWriteCount,
                      synchronizationPasses: passes.passes, failedMerges: passes.failedMerges,
                      lastMergeFailure: passes.lastFailure,
                      unreadableDocuments: unreadable.all.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map {
                          UnreadableDocumentStatus(file: $0.key, reason: $0.value.reason, preservedIn: $0.value.preservedIn)
                      }, backingFolderGone: noted.backingFolderGone, failedDeferredWork: noted.failedDeferredWork)
    }

    /// Notes, for `.minutafs/errors`, status and the log, that work done after a program was told it
    /// succeeded (`what`: a removal after its grace period, a file held while written) failed; the
    /// mount keeps what it was given and says so in `outcome`.
    public func noteDeferredFailure(_ what: String, error: String, outcome: String) {
        events.noteDeferredFailure("\(what) failed after the program was told it succeeded: \(error); \(outcome)")
    }

    /// The keys a record file shows as ISO 8601 dates (`RecordView`), and those `tags.json` does (`TagView`).
    static let recordDateKeys: Set<String> = ["startTime", "endTime"], tagDateKeys: Set<String> = ["createdAt"]

    /// One line per field with concurrent values: where, the value shown, and the values that lost,
    /// each as the file shows it (a time under one of `dateKeys` as `"2024-01-15T09:30:00Z"`, a text
    /// comment as its string; other values in typed JSON, SPEC section 3).
    static func conflictLines(of object: ObjectID, in document: Document, label: String, dateKeys: Set<String>) -> [String] {
        document.keys(of: object).compactMap { key in
            let values = document.values(of: object, key: key)
            guard values.count > 1, let winner = values.last else { return nil }
            func show(_ value: Value) -> String {
                let json: JSONValue = switch value {
                case .scalar(.timestamp(let milliseconds)) where dateKeys.contains(key): .string(ISO8601.string(milliseconds: milliseconds))
                case .object(let text, .text): .string(document.text(of: text))
                default: TypedValue.json(value, in: document)
                }
                return String(decoding: JSONWriter.pretty(json).dropLast(), as: UTF8.self)
                    .split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }.joined(separator: " ")
            }
            let losers = values.dropLast().map { show($0.value) }.joined(separator: ", ")
            return "\(label): \(key): shows \(show(winner.value)); also written concurrently: \(losers)\n"
        }
    }

    public func conflictLines(forRecord id: String, in month: Month) throws(StoreError) -> [String] {
        guard let document = try document(of: month), let object = RecordView.object(id, in: document) else { return [] }
        return Self.conflictLines(of: object, in: document, label: month.folderPath + "/" + id, dateKeys: Self.recordDateKeys)
    }

    /// Every field of every loaded document with concurrent values.
    public func conflictReport() throws(StoreError) -> [String] {
        var lines = events.snapshot.conflictLines
        let tags = try tagsDocument()
        for tag in TagView.tags(in: tags) { lines += Self.conflictLines(of: tag.object, in: tags, label: "tags.json " + tag.id, dateKeys: Self.tagDateKeys) }
        for month in try months() {
            let files = try recordFiles(in: month)
            // Edits of records deleted at the same time on another device (`LostEdits`).
            lines += try lostEditLines(in: month)
            // A parked month without concurrent values is not loaded again just to find none.
            if withState({ $0.months.parked[month]?.hasConflicts == false }) { continue }
            guard let document = try document(of: month) else { continue }
            for file in files {
                guard let object = RecordView.object(file.id, in: document) else { continue }
                lines += Self.conflictLines(of: object, in: document, label: month.folderPath + "/" + file.name, dateKeys: Self.recordDateKeys)
            }
        }
        return lines
    }
}

extension Store {
    /// `LostEdits.lines` of a month's document, kept by its file's version (or its heads, for a
    /// document that holds what its file lacks), so `.minutafs/conflicts` reads each history once.
    func lostEditLines(in month: Month) throws(StoreError) -> [String] {
        let identity = BackingFiles.status(absolute(month.documentPath))?.identity
        if let identity, let known = lostEditCache.withLock({ $0[month] }), known.identity == identity, known.heads == nil {
            return known.lines
        }
        guard let (document, fileIdentity) = try heldDocumentAndFile(of: month) else { return [] }
        let heads = fileIdentity == nil ? document.heads : nil
        if let known = lostEditCache.withLock({ $0[month] }), let heads, known.heads == heads { return known.lines }
        let lines: [String]
        do { lines = try LostEdits.lines(in: document, month: month) } catch {
            throw .documentOperationFailed(file: month.documentPath, operation: "reading its history for lost edits", cause: error)
        }
        lostEditCache.withLock { $0[month] = (fileIdentity ?? identity, heads, lines) }
        return lines
    }
}
