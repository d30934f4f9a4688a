/// Reads a document file as a document to hold (a month's or the tags'): through `DocumentFiles`, which
/// notes a file that does not load, merged with the conflict copies waiting beside it when the store
/// reads them in memory (the read-only commands, `WaitingCopyReader`).
struct DocumentReader: Sendable {
    let documentFiles: DocumentFiles
    let waitingCopyReader: WaitingCopyReader

    /// The document file at `relative` read as a document to hold: nil when there is none; a file that
    /// does not load is noted (`.minutafs/errors`, status) and thrown, one that loads clears that note.
    /// - Throws: ``StoreError/unloadableDocument(file:reason:)``.
    func readToHold(_ relative: String) throws(StoreError) -> LoadedDocument? {
        // A file known not to load, unchanged since, is not read (nor decoded) again.
        try documentFiles.requireReadableFile(relative)
        switch documentFiles.readNotingUnreadable(relative) {
        case .absent:
            return waitingCopyReader.merging(into: nil, relative: relative)
        case .unreadable(let reason, _):
            throw .unloadableDocument(file: relative, reason: reason)
        case .loaded(let document, let identity, let bytes):
            return waitingCopyReader.merging(into: LoadedDocument(read: document, identity: identity, bytes: bytes), relative: relative)
        }
    }
}
