import AutomergeKit

/// What a command changed, read from the documents' history (SPEC 10 `undo`, as `minutafs restore`
/// reads a snapshot): the heads of a document before and after the command name its changes, and the
/// records (or tags) that differ between those two states are the ones it changed.
extension Store {
    /// The heads of a month's document (the tags document for nil), as hex; none when it has no document.
    public func headsText(of month: Month?) throws(StoreError) -> [String] {
        guard let held = try replicas.heldDocumentAndFile(of: month) else { return [] }
        return held.document.heads.map(\.hexString)
    }

    /// Each record of `month`'s document (each tag, for nil) that differs between the document's state
    /// at `before` and at `after` (heads as ``headsText(of:)`` gives them), with its value now.
    /// - Throws: ``StoreError/documentOperationFailed(file:operation:cause:)`` when a head is not a change
    ///   of the document any more (its history was replaced since).
    public func changedObjects(of month: Month?, from before: [String], to after: [String]) throws(StoreError) -> [HistoryChange] {
        let path = DocumentName(month).relativePath
        let current = try replicas.heldDocumentAndFile(of: month)?.document ?? Document()
        func state(_ heads: [String]) throws(StoreError) -> Document {
            var hashes: [ChangeHash] = []
            for text in heads {
                guard let hash = ChangeHash(hexString: text) else {
                    throw .documentOperationFailed(file: path, operation: "reading its history", cause: AutomergeError(.missingDependency, "\(text) is not a change hash"))
                }
                hashes.append(hash)
            }
            do { return try current.state(atHeads: hashes) } catch {
                throw .documentOperationFailed(file: path, operation: "reading its history (the changes of the command are no longer in it)", cause: error)
            }
        }
        let then = Self.objects(of: month, in: try state(before))
        let laterDocument = try state(after)
        let later = Self.objects(of: month, in: laterDocument)
        let now = Self.objects(of: month, in: current)
        var ids = then.order
        for id in later.order where then.values[id] == nil { ids.append(id) }
        return ids.compactMap { id in
            var change = HistoryChange(id: id, before: then.values[id], after: later.values[id], now: now.values[id])
            guard change.before != change.after else { return nil }
            // Shown the same, but another device's value for a field arrived since, concurrent with the
            // command's and losing to it: setting the field back would overwrite that value too.
            change.gainedConcurrentValues = change.now == change.after
                && Self.concurrentValues(of: id, month: month, in: current) != Self.concurrentValues(of: id, month: month, in: laterDocument)
            return change
        }
    }

    /// The `.minutafs/conflicts` lines of a record's (or tag's, for nil) fields with concurrent values.
    private static func concurrentValues(of id: String, month: Month?, in document: Document) -> [String] {
        if let month {
            guard let object = RecordView.object(id, in: document) else { return [] }
            return ConcurrentValueLines.lines(of: object, in: document, label: month.folderPath + "/" + id, dateKeys: ConcurrentValueLines.recordDateKeys)
        }
        guard let tag = TagView.tags(in: document).first(where: { $0.id == id }) else { return [] }
        return ConcurrentValueLines.lines(of: tag.object, in: document, label: "tags.json " + id, dateKeys: ConcurrentValueLines.tagDateKeys)
    }

    /// The records (or tags, for nil) of a document as their files show them, by id, and the ids in order.
    private static func objects(of month: Month?, in document: Document) -> (values: [String: JSONValue], order: [String]) {
        var values: [String: JSONValue] = [:]
        var order: [String] = []
        if month == nil {
            for tag in TagView.tags(in: document) {
                values[tag.id] = TagView.json(tag, in: document)
                order.append(tag.id)
            }
        } else {
            for key in document.keys(of: .root) {
                guard let object = RecordView.object(key, in: document) else { continue }
                values[key] = RecordView.json(id: key, record: object, in: document)
                order.append(key)
            }
        }
        return (values, order)
    }
}
