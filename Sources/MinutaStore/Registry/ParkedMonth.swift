import AutomergeKit

/// A month document set aside to bound memory (`MonthDocuments.install`): the bytes it was last read or
/// written as, its identity and its record files.
///
/// A loaded month document takes about a hundred times its file's size (a 300-record month, 19 KB on
/// disk, about 1.7 MB), so a store keeps at most `MonthDocuments.loadedLimit` of them decoded. The
/// least recently used others are parked: only documents with nothing unsaved are, so the bytes equal
/// the document. Listing and reading a parked month's files needs nothing more; an edit, a merge, the
/// conflicts of its records or a change of its file underneath loads the document again from those
/// bytes (``decoded(actor:month:)``), so a file replaced by a sync tool is still merged with what the
/// store held.
struct ParkedMonth: Sendable {
    var bytes: [UInt8]
    var identity: BackingFiles.Identity?
    var view: MonthView?
    /// Whether any of its records has a field with concurrent values (`conflictReport` skips it if not).
    var hasConflicts: Bool
    /// ``LoadedDocument/lastReadHeads`` when it was parked.
    var lastReadHeads: [ChangeHash]

    /// The month decoded again, as it was when parked, committing as `actor`.
    /// - Throws: ``StoreError/documentOperationFailed(file:operation:cause:)`` naming the month's document.
    func decoded(actor: ActorID, month: Month) throws(StoreError) -> LoadedDocument {
        do {
            var document = try Document.load(bytes)
            document.setActor(actor)
            return LoadedDocument(document: document, identity: identity, view: view,
                                  savedChangeCount: document.changeCount, savedBytes: bytes, lastReadHeads: lastReadHeads)
        } catch {
            throw .documentOperationFailed(file: month.documentPath, operation: "loading the month again from the bytes it was set aside with", cause: error)
        }
    }

    /// Whether any record of a month document has a field with concurrent values.
    static func hasConflicts(in document: Document) -> Bool {
        document.keys(of: .root).contains { key in
            guard let record = RecordView.object(key, in: document) else { return false }
            return document.keys(of: record).contains { document.values(of: record, key: $0).count > 1 }
        }
    }
}
