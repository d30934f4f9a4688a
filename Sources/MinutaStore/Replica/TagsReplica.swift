import AutomergeKit
import Synchronization

/// The tags document as the store holds it, a replica like a month's but behind a lock of its own: a
/// read or a save of `tags.json` never waits for the months' `state`, nor a month's reader for it. It
/// owns the document (loaded on first use: decoded before its lock is taken, unless a change took it
/// meanwhile), `tags.json` as rendered (kept with the version of the document it was rendered from, so
/// a stale one is never served), and how a change of it is checked out and in.
final class TagsReplica: Sendable {
    private struct Held: Sendable {
        var document: LoadedDocument?
        /// `tags.json` as rendered, and the version of the document it was rendered from.
        var file: (version: DocumentVersion, contents: [UInt8])?
    }

    /// Held for look-ups and for putting a document in place; the decoding of a document not prepared
    /// beforehand (a file that does not load, noted by `prepare`, is read again under it), and the
    /// rendering of `tags.json`, are the only work done under it.
    private let held = Mutex(Held())
    private let reader: DocumentReader
    private let actor: ActorID

    init(reader: DocumentReader, actor: ActorID) {
        self.reader = reader
        self.actor = actor
    }

    /// Whether the tags document is held (for the loaded count of `.minutafs/status` and the synchronizer).
    var isHeld: Bool { held.withLock { $0.document != nil } }

    /// Loads the tags document without the lock unless it is held (a file that does not load is noted;
    /// `loaded` then says so).
    func prepare() {
        guard !isHeld else { return }
        guard let loaded = try? reader.readToHold(DocumentName.tagsPath) else { return }
        held.withLock { held in
            if held.document == nil { held.document = loaded }
        }
    }

    /// The held document, loaded (and held) if it is not: an empty one when there is no file.
    /// - Throws: ``StoreError/unloadableDocument(file:reason:)`` when the file does not load.
    func loaded() throws(StoreError) -> LoadedDocument {
        prepare()
        return try held.withLock { (held: inout Held) throws(StoreError) -> LoadedDocument in try Self.load(&held, reader: reader, actor: actor) }
    }

    private static func load(_ held: inout Held, reader: DocumentReader, actor: ActorID) throws(StoreError) -> LoadedDocument {
        if let loaded = held.document { return loaded }
        let loaded = try reader.readToHold(DocumentName.tagsPath)
            ?? LoadedDocument(document: Document(actor: actor), identity: nil, view: nil, savedChangeCount: -1)
        held.document = loaded
        return loaded
    }

    /// The contents of `tags.json`, rendered once per version of the document.
    func file() throws(StoreError) -> [UInt8] {
        prepare()
        return try held.withLock { (held: inout Held) throws(StoreError) -> [UInt8] in
            let loaded = try Self.load(&held, reader: reader, actor: actor)
            let version = DocumentVersion(of: loaded.document)
            if let file = held.file, file.version == version { return file.contents }
            let contents = TagView.fileContents(of: loaded.document)
            held.file = (version, contents)
            return contents
        }
    }

    /// A copy of the document and the version of its file it was read from or saved as (nil: it holds
    /// changes the file lacks), taken together.
    func documentAndFile() throws(StoreError) -> (document: Document, identity: BackingFiles.Identity?) {
        let loaded = try loaded()
        return (loaded.document, loaded.savedFileIdentity)
    }

    /// Changes the tags document: loaded, changed by `change` with the lock released, and put in place
    /// when `change` returns and `keepsChange` says so; when it throws or the change is not kept, the
    /// store goes on holding the tags as they were. Runs in the caller's write lane (the tags').
    func withChange<R: Sendable>(
        _ change: (inout LoadedDocument) throws(StoreError) -> R, keepsChange: (R) -> Bool = { _ in true }
    ) throws(StoreError) -> R {
        var loaded = try loaded()
        let result = try change(&loaded)
        guard keepsChange(result) else { return result }
        let checkedIn = loaded
        held.withLock { $0.document = checkedIn }
        return result
    }
}
