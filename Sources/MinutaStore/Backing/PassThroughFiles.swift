/// Files the store passes through: images in month folders and anything else in the backing folder
/// that is not a document. The owner of what is shown (no documents, conflict copies, sync-tool or
/// store files, symbolic links), of what is refused (a record or `tags.json` under another name, which
/// would put a copy on every device), and of images being attached to the record they are named after
/// (`<record id>_<n>.<ext>`; deleting one detaches it, `RecordSaver.updateImageList`). Writes run in the
/// write lanes `Store` claimed for them.
package struct PassThroughFiles: Sendable {
    let backingFolder: BackingFolder
    let documentFiles: DocumentFiles
    let replicas: MonthReplicas
    let records: RecordSaver
    let events: StoreEvents

    /// Whether a name in the backing folder is the store's own or a sync tool's and must not be shown.
    package static func isHidden(_ name: String) -> Bool {
        if name.hasSuffix(".automerge") || ConflictCopyName.match(name) != nil { return true }
        if name.hasPrefix(".syncthing.") && name.hasSuffix(".tmp") { return true }
        if name.hasSuffix(".tmp") && name.utf8.firstRange(of: ".minutafs-".utf8) != nil { return true }
        if [".stfolder", ".stignore", ".stversions", ".minutafs-quarantine", ".minutafs-state"].contains(name) { return true }
        if name.hasPrefix(".dropbox") || name.hasPrefix("~$") || name.hasPrefix(".~") { return true }
        return false
    }

    /// Why bytes written to `relative` are refused: a record's JSON under a name in a month folder that
    /// is not an image, or in a folder inside a month folder, or `tags.json`'s under another name at the
    /// top; nil when they are taken.
    static func refusal(of bytes: [UInt8], to relative: String, inMonth: Bool) -> RecordInputError? {
        let name = BackingFiles.lastComponent(relative)
        if inMonth, PassThroughFile.imageOwner(name) == nil, PassThroughFile.isRecordJSON(bytes) {
            // `records/YYYY/MM/NAME` is in the month folder; anything deeper is in a folder inside it.
            let parts = relative.split(separator: "/")
            return parts.count > 4 ? .recordInSubfolder(parts.dropFirst(3).joined(separator: "/")) : .recordUnderOtherName(name)
        }
        if !inMonth, relative == name, name.hasPrefix("tags.json"), PassThroughFile.isTagsJSON(bytes) { return .tagsUnderOtherName(name) }
        return nil
    }

    private func readable(_ relative: String) -> String { backingFolder.readingPath + "/" + relative }

    /// Reads a passed-through file, `relative` to the store.
    func contents(_ relative: String) throws(StoreError) -> [UInt8] {
        try BackingFiles.read(readable(relative))
    }

    /// A passed-through file's or folder's kind, size and time; nil for anything else (links, devices).
    func status(_ relative: String) -> (isDirectory: Bool, size: Int, modificationSeconds: Int, modificationNanoseconds: Int)? {
        guard let status = BackingFiles.status(readable(relative)), status.isDirectory || status.isRegularFile else { return nil }
        return (status.isDirectory, Int(status.size), status.modificationSeconds, status.modificationNanoseconds)
    }

    /// The entries of a backing folder, without documents, conflict copies and sync-tool files,
    /// and without symbolic links (never followed out of the store).
    func entries(_ relative: String) throws(StoreError) -> [(name: String, isDirectory: Bool)] {
        let folder = relative.isEmpty ? backingFolder.readingPath : readable(relative)
        guard BackingFiles.status(folder)?.isDirectory == true else { return [] }
        return try BackingFiles.listDirectory(folder).compactMap { name in
            guard !Self.isHidden(name), let status = BackingFiles.status(folder + "/" + name),
                  status.isDirectory || status.isRegularFile else { return nil }
            return (name, status.isDirectory)
        }
    }

    /// Writes a passed-through file atomically; in a month folder, an image named after one of the
    /// month's records is attached to it. A refused write is noted and its bytes kept.
    func write(_ bytes: [UInt8], to relative: String, month: Month?) throws(StoreError) {
        try backingFolder.require()
        if let refusal = Self.refusal(of: bytes, to: relative, inMonth: month != nil) {
            let error = StoreError.rejected(file: relative, line: nil, column: nil, reason: refusal)
            events.noteRejected(error, bytes: bytes, file: relative, at: replicas.now())
            throw error
        }
        let file = replicas.absolute(relative)
        let name = BackingFiles.lastComponent(relative)
        // An image of a record is attached to it: not while its document does not load.
        if let month, PassThroughFile.imageOwner(name) != nil {
            try documentFiles.requireReadableFile(month.documentPath)
        }
        try BackingFiles.makeDirectories(BackingFiles.parentPath(file))
        try BackingFiles.writeAtomically(bytes, to: file)
        guard let month else { return }
        try records.updateImageList(name, in: month, attach: true)
    }

    /// Removes a passed-through file; an image of a record is detached from it.
    func remove(_ relative: String, month: Month?) throws(StoreError) {
        try backingFolder.require()
        let name = BackingFiles.lastComponent(relative)
        if let month, PassThroughFile.imageOwner(name) != nil {
            try documentFiles.requireReadableFile(month.documentPath)
        }
        try BackingFiles.remove(replicas.absolute(relative))
        guard let month else { return }
        try records.updateImageList(name, in: month, attach: false)
    }

    func rename(from source: String, to destination: String) throws(StoreError) {
        try backingFolder.require()
        try BackingFiles.move(replicas.absolute(source), to: replicas.absolute(destination))
    }

    func makeFolder(_ relative: String) throws(StoreError) {
        try backingFolder.require()
        let folder = replicas.absolute(relative)
        guard BackingFiles.status(folder) == nil else { throw .alreadyExists(relative) }
        try BackingFiles.makeDirectories(folder)
    }

    /// Removes an empty folder; a month folder whose document still holds records is not empty, and
    /// the document of a month left with no records goes with its folder.
    func removeFolder(_ relative: String, month: Month?) throws(StoreError) {
        try backingFolder.require()
        if let month, !(try replicas.recordFiles(in: month)).isEmpty { throw .notEmpty(relative) }
        let folder = replicas.absolute(relative)
        guard BackingFiles.status(folder)?.isDirectory == true else { throw .notFound(relative) }
        guard try BackingFiles.listDirectory(folder).isEmpty else { throw .notEmpty(relative) }
        try BackingFiles.removeDirectory(folder)
        if let month, BackingFiles.status(replicas.absolute(month.documentPath)) != nil, try replicas.recordFiles(in: month).isEmpty {
            // An empty month: its document has no records left, so it goes with the folder.
            try BackingFiles.remove(replicas.absolute(month.documentPath))
            replicas.forget(month)
        }
    }
}
