import AutomergeKit
import Crypto
import Glibc
import MinutaStore

/// One store taking part in a sync: what it holds, its documents and images read and written
/// (atomically and durably, as every minutafs write), and the sync states it keeps for one peer in
/// the state folder (never in the synced folder).
///
/// A document is read merged (in memory) with the conflict copies waiting beside it, so the peer
/// receives them too. When the store is mounted (`delivery`), what is received is handed to the
/// mount as a conflict copy instead of written over the document (see ``MountDelivery``).
struct StoreSyncSide {
    let storePath: String
    /// Where this store's states for the peer are kept; nil: none are kept (every sync starts afresh).
    let stateFolder: String?
    /// Nothing is written: documents, images or states.
    let dryRun: Bool
    /// The mount of this store, which carries out what is received; nil: the store is not mounted
    /// and this side writes its documents itself, under the store's lock.
    var delivery: MountDelivery? = nil

    /// This side, keeping its states in `stateFolder`.
    func with(stateFolder: String?, dryRun: Bool) -> StoreSyncSide {
        StoreSyncSide(storePath: storePath, stateFolder: stateFolder, dryRun: dryRun, delivery: delivery)
    }

    /// `tags.automerge` and `records/YYYY/MM.automerge` this store has (or has conflict copies of), sorted.
    func documentPaths() throws(CommandFailure) -> [String] {
        var paths: Set<String> = []
        for entry in try names(in: "") where !entry.isDirectory {
            if entry.name == DocumentName.tagsPath || ConflictCopyName.match(entry.name)?.primaryName == DocumentName.tagsPath { paths.insert(DocumentName.tagsPath) }
        }
        for year in try names(in: "records") where Self.isYear(year.name) && year.isDirectory {
            for month in try names(in: "records/\(year.name)") where !month.isDirectory {
                let path = "records/\(year.name)/\(month.name)"
                if Self.isDocumentPath(path) { paths.insert(path) }
                if let copy = ConflictCopyName.match(month.name), copy.primaryName != DocumentName.tagsPath {
                    paths.insert("records/\(year.name)/\(copy.primaryName)")
                }
            }
        }
        return paths.sorted()
    }

    /// The image files of every month folder (`records/YYYY/MM/NAME`), with sizes and digests.
    func images() throws(CommandFailure) -> [SessionFrame.ImageEntry] {
        var entries: [SessionFrame.ImageEntry] = []
        for year in try names(in: "records") where Self.isYear(year.name) && year.isDirectory {
            for month in try names(in: "records/\(year.name)") where month.isDirectory && Self.isMonth(month.name) {
                for file in try names(in: "records/\(year.name)/\(month.name)") where !file.isDirectory {
                    let path = "records/\(year.name)/\(month.name)/\(file.name)"
                    guard Self.isImagePath(path) else { continue }
                    let bytes = try readImage(path)
                    entries.append(SessionFrame.ImageEntry(path: path, size: bytes.count, digest: Array(SHA256.hash(data: bytes))))
                }
            }
        }
        return entries.sorted { $0.path < $1.path }
    }

    /// ``images()`` by month folder, and each month's summary for the hello: the folder, the
    /// number of images and the SHA-256 of their names, sizes and digests.
    func imageMonths() throws(CommandFailure) -> (byFolder: [String: [SessionFrame.ImageEntry]], summaries: [SessionFrame.ImageEntry]) {
        var byFolder: [String: [SessionFrame.ImageEntry]] = [:]
        for image in try images() {
            byFolder[String(image.path.dropLast(BackingFiles.lastComponent(image.path).count + 1)), default: []].append(image)
        }
        let summaries = byFolder.keys.sorted().map { folder in
            let entries = byFolder[folder] ?? []
            var hasher = SHA256()
            for entry in entries {
                hasher.update(data: Array(entry.path.utf8) + [0] + Array(String(entry.size).utf8) + [0] + entry.digest)
            }
            return SessionFrame.ImageEntry(path: folder, size: entries.count, digest: Array(hasher.finalize()))
        }
        return (byFolder, summaries)
    }

    /// `records/YYYY/MM`: a month's image folder.
    static func isImageFolder(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        return parts.count == 3 && parts[0] == "records" && isYear(parts[1]) && isMonth(parts[2])
    }

    private func names(in folder: String) throws(CommandFailure) -> [(name: String, isDirectory: Bool)] {
        let path = folder.isEmpty ? storePath : storePath + "/" + folder
        guard BackingFiles.status(path)?.isDirectory == true else { return [] }
        do { return try BackingFiles.listDirectoryKinds(path) } catch {
            throw CommandFailure(path: path, cause: error.description)
        }
    }

    /// The document at `path` merged with the conflict copies waiting beside it (in memory; an
    /// empty document when the store has neither), and the copies merged. A copy that does not
    /// load is left out (the mount or `minutafs merge` quarantines it); a document that does not
    /// load is not synced at all (it is never written over).
    /// `identity` is the document file's, taken from the descriptor it was read through (nil when
    /// there is no file).
    func loadDocument(_ path: String) throws(CommandFailure) -> (document: Document, existed: Bool, copiesMerged: [String], identity: BackingFiles.Identity?) {
        let full = storePath + "/" + path
        // The copies first, then the document: a mount (or `minutafs merge`) deletes a copy only
        // once the document holding it is written, so a copy gone by now is in the document read after.
        var copies: [(path: String, document: Document)] = []
        for copy in waitingCopies(of: path) {
            guard let bytes = try? BackingFiles.read(storePath + "/" + copy), let incoming = try? DocumentFile.load(bytes, from: copy) else { continue }
            copies.append((copy, incoming))
        }
        var document = Document()
        var existed = false
        var identity: BackingFiles.Identity?
        if BackingFiles.status(full) != nil {
            let read: (bytes: [UInt8], identity: BackingFiles.Identity)
            do { read = try BackingFiles.readWithIdentity(full) } catch {
                throw CommandFailure(path: full, cause: DocumentFile.cause(error))
            }
            document = try DocumentFile.load(read.bytes, from: full)
            identity = read.identity
            existed = true
        }
        var merged: [String] = []
        for copy in copies {
            do { try document.merge(copy.document) } catch { continue }
            merged.append(copy.path)
            existed = true
        }
        return (document, existed, merged, identity)
    }

    /// The identity of the document file at `path` (nil when it is not a regular file), for ``SyncShortcut``.
    func documentIdentity(_ path: String) -> BackingFiles.Identity? {
        guard let status = BackingFiles.status(storePath + "/" + path), status.isRegularFile else { return nil }
        return status.identity
    }

    /// Where what was said for `path` is kept, nil when nothing is kept (no state folder, a dry run).
    func shortcut(for path: String) -> SyncShortcut? {
        guard !dryRun, let stateFolder else { return nil }
        return SyncShortcut(file: stateFolder + "/" + path.replacingSlashes() + ".last")
    }

    /// The conflict copies beside the document `path`, relative to the store, sorted.
    func waitingCopies(of path: String) -> [String] {
        let parent = BackingFiles.parentPath(path)
        let folder = parent == "." ? "" : parent
        let primary = BackingFiles.lastComponent(path)
        let entries = (try? BackingFiles.listDirectoryKinds(folder.isEmpty ? storePath : storePath + "/" + folder)) ?? []
        return entries.filter { !$0.isDirectory && ConflictCopyName.match($0.name)?.primaryName == primary }
            .map { folder.isEmpty ? $0.name : folder + "/" + $0.name }.sorted()
    }

    /// Keeps `document` as `path`: written over the file (atomically and durably) when this side
    /// writes its store, handed to the mount as a conflict copy when the store is mounted.
    func saveDocument(_ document: inout Document, at path: String) throws(CommandFailure) {
        guard !dryRun else { return }
        let full = storePath + "/" + path
        if let delivery {
            let bytes: [UInt8]
            do { bytes = try document.save() } catch {
                throw CommandFailure(path: full, cause: "cannot save: \(error)")
            }
            _ = try delivery.deliver(bytes, for: path, day: SyncSession.today())
            return
        }
        do { try BackingFiles.makeDirectories(BackingFiles.parentPath(full)) } catch {
            throw CommandFailure(path: full, cause: error.description)
        }
        let bytes: [UInt8]
        do { bytes = try document.save() } catch {
            throw CommandFailure(path: full, cause: "cannot save: \(error)")
        }
        try DocumentFile.write(bytes, toPath: full)
    }

    func readImage(_ path: String) throws(CommandFailure) -> [UInt8] {
        let full = storePath + "/" + path
        do { return try BackingFiles.read(full) } catch { throw CommandFailure(path: full, cause: error.description) }
    }

    /// Keeps an image the peer has: under its own name when this store has none, under the app's
    /// conflict-copy name (`X_0 (PEER's conflicted copy YYYY-MM-DD).jpg`, which the mount and the
    /// app show beside the original) when this store's differs; nothing when the bytes are here
    /// already. Returns the path written, nil when none was (or would be, in a dry run).
    func keepImage(_ bytes: [UInt8], at path: String, from peer: String, day: String) throws(CommandFailure) -> String? {
        let full = storePath + "/" + path
        if let existing = try? BackingFiles.read(full) {
            if existing == bytes { return nil }
            let host = String(peer.prefix { $0 != ":" }).filter { $0 != "/" && $0 != ")" && $0 != "(" }
            let name = BackingFiles.lastComponent(path)
            let dot = name.lastIndex(of: ".") ?? name.endIndex
            let folder = String(path.dropLast(name.count))
            for number in 1...99 {
                let copy = folder + name[..<dot] + " (\(host.isEmpty ? "peer" : host)'s conflicted copy \(day)\(number == 1 ? "" : " \(number)"))" + name[dot...]
                if let there = try? BackingFiles.read(storePath + "/" + copy) {
                    if there == bytes { return nil }
                    continue
                }
                try writeImage(bytes, at: copy)
                return copy
            }
            throw CommandFailure(path: full, cause: "99 conflict copies of it exist already; the peer's version is not kept")
        }
        try writeImage(bytes, at: path)
        return path
    }

    private func writeImage(_ bytes: [UInt8], at path: String) throws(CommandFailure) {
        guard !dryRun else { return }
        let full = storePath + "/" + path
        do {
            try BackingFiles.makeDirectories(BackingFiles.parentPath(full))
            try BackingFiles.writeAtomically(bytes, to: full)
        } catch {
            throw CommandFailure(path: full, cause: error.description)
        }
    }

    /// The state kept for this document and the peer, or a fresh one.
    func syncState(for path: String) -> SyncState {
        guard let file = stateFile(for: path), let bytes = try? BackingFiles.read(file),
              let state = try? SyncState.decode(bytes) else { return SyncState() }
        return state
    }

    func saveSyncState(_ state: SyncState, for path: String) throws(CommandFailure) {
        guard !dryRun, let file = stateFile(for: path) else { return }
        // Unchanged (the document was in sync already): no write, no fsync.
        if let kept = try? BackingFiles.read(file), kept == state.encoded { return }
        do {
            try BackingFiles.makeDirectories(BackingFiles.parentPath(file))
            try BackingFiles.writeAtomically(state.encoded, to: file, permissions: 0o600)
        } catch {
            throw CommandFailure(path: file, cause: error.description)
        }
    }

    private func stateFile(for path: String) -> String? {
        stateFolder.map { $0 + "/" + path.replacingSlashes() + ".state" }
    }

    static func isYear(_ name: String) -> Bool { name.utf8.count == 4 && name.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
    static func isMonth(_ name: String) -> Bool {
        guard name.utf8.count == 2, let value = Int(name) else { return false }
        return (1...12).contains(value)
    }

    /// `tags.automerge` or `records/YYYY/MM.automerge`: the only names a peer may make this side write.
    static func isDocumentPath(_ path: String) -> Bool {
        if path == DocumentName.tagsPath { return true }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[0] == "records", isYear(parts[1]), parts[2].hasSuffix(".automerge") else { return false }
        return isMonth(String(parts[2].dropLast(".automerge".count)))
    }

    /// `records/YYYY/MM/NAME`, NAME neither hidden nor a temporary file, nor `.`/`..`.
    static func isImagePath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, parts[0] == "records", isYear(parts[1]), isMonth(parts[2]) else { return false }
        let name = parts[3]
        return !name.isEmpty && !name.hasPrefix(".") && name.utf8.count <= 255 && !BackingFiles.isTemporaryName(name)
    }
}

extension String {
    /// `records/2024/03.automerge` as one file name: `records-2024-03.automerge`.
    func replacingSlashes() -> String { String(map { $0 == "/" ? "-" : $0 }) }
}
