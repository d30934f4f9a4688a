import AutomergeKit

/// A document the store holds decoded: the replica of one document file (a month's or the tags'), with
/// what is known of the file it was read from and written to, and its rendered view.
struct LoadedDocument: Sendable {
    var document: Document
    /// The file as this process last read or wrote it; a different one means someone else wrote it.
    var identity: BackingFiles.Identity?
    /// The record files of the document as it is: nil once the document changed since they were
    /// rendered (they are kept with its version), or when they were dropped because what they show
    /// depends on other documents (a record held twice). Setting it to nil renders every record
    /// again (see `invalidateView(changedRecord:)`).
    var view: MonthView? {
        get {
            guard let rendered, rendered.version == DocumentVersion(of: document) else { return nil }
            return rendered.view
        }
        set {
            rendered = newValue.map { (DocumentVersion(of: document), $0) }
            if newValue == nil { reusableView = nil }
        }
    }
    /// The view and the version of the document it was rendered from.
    private var rendered: (version: DocumentVersion, view: MonthView)?
    /// How many changes the document had when it was last read or written.
    var savedChangeCount: Int
    /// An earlier view and the records changed since (upper-cased ids), all by edits of this store:
    /// the next `monthView` renders only those again and takes the other files from it.
    var reusableView: (view: MonthView, changedRecords: Set<RecordID>)?
    /// The file's bytes as this process last read or wrote them (`identity`'s): what the document is
    /// loaded again from after it was parked (see `Registry/ParkedMonth.swift`).
    var savedBytes: [UInt8]?
    /// The heads of the file as this process last read it (not as it wrote it): what the held
    /// document has beyond them may exist nowhere else (see `preserveHeldChanges`).
    var lastReadHeads: [ChangeHash] = []
    /// Bytes this store appended to the file as change chunks since it last wrote it whole
    /// (see `replaceDocumentFile`): past `appendLimit` the next save writes it whole again.
    var appendedBytes = 0

    init(
        document: Document, identity: BackingFiles.Identity?, view: MonthView?, savedChangeCount: Int,
        savedBytes: [UInt8]? = nil, lastReadHeads: [ChangeHash] = []
    ) {
        self.document = document
        self.identity = identity
        self.savedChangeCount = savedChangeCount
        self.savedBytes = savedBytes
        self.lastReadHeads = lastReadHeads
        self.view = view
    }

    /// The version of the file the document is (`identity`), nil when the document holds changes the
    /// file lacks (or has no file).
    var savedFileIdentity: BackingFiles.Identity? {
        document.changeCount == savedChangeCount ? identity : nil
    }

    /// Another device's changes were merged in: the records changed are not known, so no view is
    /// reused (the version already tells that the view is not current).
    mutating func noteMerged() {
        reusableView = nil
    }

    /// The record `id` changed and no other did (an edit of this store, not a merge). Called after the
    /// edit's operations and before they are committed: the view rendered for the document's heads, which
    /// only this edit's uncommitted operations have changed since, is kept to reuse with `id` rendered
    /// again. A view of other heads (a merge or a commit since) is never reused.
    mutating func invalidateView(changedRecord id: String) {
        let current = rendered.flatMap { $0.version.heads == document.heads ? $0.view : nil }
        var reusable = current.map { (view: $0, changedRecords: Set<RecordID>()) } ?? reusableView
        reusable?.changedRecords.insert(RecordID(id))
        view = nil
        reusableView = reusable
    }
}

extension LoadedDocument {
    /// A document as just read from its file (`bytes`, whose `identity` it has): nothing unsaved.
    init(read document: Document, identity: BackingFiles.Identity, bytes: [UInt8]) {
        self.init(document: document, identity: identity, view: nil, savedChangeCount: document.changeCount,
                  savedBytes: bytes, lastReadHeads: document.heads)
    }
}
