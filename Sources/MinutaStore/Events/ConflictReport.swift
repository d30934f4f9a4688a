import AutomergeKit
import Synchronization

/// `.minutafs/conflicts`: every field of the held documents with concurrent values, the values merges
/// and saves replaced (`StoreEvents`), and the edits lost to a deletion on another device (`LostEdits`),
/// these kept per month by its file's version (or its heads, for a document that holds what its file
/// lacks), so each history is read once. The history scan runs without the lock.
final class ConflictReport: Sendable {
    private let replicas: MonthReplicas
    private let events: StoreEvents
    /// The lost-edit lines found per month, with the version of the file (or the heads) they were found in.
    private let lostEditCache = Mutex<[Month: (identity: BackingFiles.Identity?, heads: [ChangeHash]?, lines: [String])]>([:])

    init(replicas: MonthReplicas, events: StoreEvents) {
        self.replicas = replicas
        self.events = events
    }

    /// The concurrent values of one record, one line each.
    func lines(forRecord id: String, in month: Month) throws(StoreError) -> [String] {
        guard let document = try replicas.heldDocumentAndFile(of: month)?.document, let object = RecordView.object(id, in: document) else { return [] }
        return ConcurrentValueLines.lines(of: object, in: document, label: month.folderPath + "/" + id, dateKeys: ConcurrentValueLines.recordDateKeys)
    }

    /// Every line of `.minutafs/conflicts`.
    func lines() throws(StoreError) -> [String] {
        var lines = events.snapshot.conflictLines
        guard let tags = try replicas.heldDocumentAndFile(of: nil)?.document else { return lines }
        for tag in TagView.tags(in: tags) { lines += ConcurrentValueLines.lines(of: tag.object, in: tags, label: "tags.json " + tag.id, dateKeys: ConcurrentValueLines.tagDateKeys) }
        for month in try replicas.listing.months() {
            let files = try replicas.recordFiles(in: month)
            // Edits of records deleted at the same time on another device (`LostEdits`).
            lines += try lostEditLines(in: month)
            // A parked month without concurrent values is not loaded again just to find none.
            if replicas.isParkedWithoutConflicts(month) { continue }
            guard let document = try replicas.heldDocumentAndFile(of: month)?.document else { continue }
            for file in files {
                guard let object = RecordView.object(file.id, in: document) else { continue }
                lines += ConcurrentValueLines.lines(of: object, in: document, label: month.folderPath + "/" + file.name, dateKeys: ConcurrentValueLines.recordDateKeys)
            }
        }
        return lines
    }

    /// `LostEdits.lines` of a month's document; from the cache while its file (or heads) did not change.
    func lostEditLines(in month: Month) throws(StoreError) -> [String] {
        let identity = BackingFiles.status(replicas.absolute(month.documentPath))?.identity
        if let identity, let known = lostEditCache.withLock({ $0[month] }), known.identity == identity, known.heads == nil {
            return known.lines
        }
        guard let (document, fileIdentity) = try replicas.heldDocumentAndFile(of: month) else { return [] }
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
