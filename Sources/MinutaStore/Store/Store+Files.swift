/// Files the store passes through: images in month folders and anything else in the backing
/// folder that is not a document. Creating `<record id>_<n>.<ext>` in a month folder attaches the
/// image to that record; deleting it detaches it.
extension Store {
    /// Whether a name in the backing folder is the store's own or a sync tool's and must not be shown.
    public static func isHiddenBackingName(_ name: String) -> Bool {
        if name.hasSuffix(".automerge") || ConflictCopyName.match(name) != nil { return true }
        if name.hasPrefix(".syncthing.") && name.hasSuffix(".tmp") { return true }
        if name.hasSuffix(".tmp") && name.utf8.firstRange(of: ".minutafs-".utf8) != nil { return true }
        if [".stfolder", ".stignore", ".stversions", ".minutafs-quarantine", ".minutafs-state"].contains(name) { return true }
        if name.hasPrefix(".dropbox") || name.hasPrefix("~$") || name.hasPrefix(".~") { return true }
        return false
    }

    /// Reads a passed-through file, `relative` to the store.
    public func passThroughContents(_ relative: String) throws(StoreError) -> [UInt8] {
        try BackingFiles.read(readable(relative))
    }

    public func passThroughStatus(_ relative: String) -> (isDirectory: Bool, size: Int, modificationSeconds: Int, modificationNanoseconds: Int)? {
        guard let status = BackingFiles.status(readable(relative)), status.isDirectory || status.isRegularFile else { return nil }
        return (status.isDirectory, Int(status.size), status.modificationSeconds, status.modificationNanoseconds)
    }

    /// The entries of a backing folder, without documents, conflict copies and sync-tool files,
    /// and without symbolic links (never followed out of the store).
    public func passThroughEntries(_ relative: String) throws(StoreError) -> [(name: String, isDirectory: Bool)] {
        let folder = relative.isEmpty ? backingFolder.readingPath : readable(relative)
        guard BackingFiles.status(folder)?.isDirectory == true else { return [] }
        return try BackingFiles.listDirectory(folder).compactMap { name in
            guard !Self.isHiddenBackingName(name), let status = BackingFiles.status(folder + "/" + name),
                  status.isDirectory || status.isRegularFile else { return nil }
            return (name, status.isDirectory)
        }
    }

    /// Writes a passed-through file atomically; in a month folder, an image named after one of the
    /// month's records is attached to it.
    public func writePassThrough(_ bytes: [UInt8], to relative: String, month: Month?) throws(StoreError) {
        guard bytes.count <= Self.maximumPassThroughFileSize else {
            recordOversizedWrite(toPath: relative, limit: Self.maximumPassThroughFileSize)
            throw .rejected(file: relative, line: nil, column: nil, reason: .tooLarge(limit: Self.maximumPassThroughFileSize))
        }
        try withDocumentWrites(month.map(WriteClaim.month) ?? .wholeStore) { () throws(StoreError) in
            try requireBackingFolder()
            let name = BackingFiles.lastComponent(relative)
            let copied: RecordInputError? = if month != nil, PassThroughFile.imageOwner(name) == nil, PassThroughFile.isRecordJSON(bytes) {
                .recordUnderOtherName(name)
            } else if month == nil, relative == name, name.hasPrefix("tags.json"), PassThroughFile.isTagsJSON(bytes) {
                .tagsUnderOtherName(name)
            } else {
                nil
            }
            if let copied {
                let error = StoreError.rejected(file: relative, line: nil, column: nil, reason: copied)
                events.noteRejected(error, bytes: bytes, file: relative, at: now())
                throw error
            }
            let file = absolute(relative)
            // An image of a record is attached to it: not while its document does not load.
            if let month, PassThroughFile.imageOwner(BackingFiles.lastComponent(relative)) != nil {
                try documentFiles.requireReadableFile(month.documentPath)
            }
            try BackingFiles.makeDirectories(BackingFiles.parentPath(file))
            try BackingFiles.writeAtomically(bytes, to: file)
            guard let month else { return }
            try records.updateImageList(BackingFiles.lastComponent(relative), in: month, attach: true)
        }
    }

    public func removePassThrough(_ relative: String, month: Month?) throws(StoreError) {
        try withDocumentWrites(month.map(WriteClaim.month) ?? .wholeStore) { () throws(StoreError) in
            try requireBackingFolder()
            if let month, PassThroughFile.imageOwner(BackingFiles.lastComponent(relative)) != nil {
                try documentFiles.requireReadableFile(month.documentPath)
            }
            try BackingFiles.remove(absolute(relative))
            guard let month else { return }
            try records.updateImageList(BackingFiles.lastComponent(relative), in: month, attach: false)
        }
    }

    public func renamePassThrough(from source: String, to destination: String) throws(StoreError) {
        try withDocumentWrites(.wholeStore) { () throws(StoreError) in
            try requireBackingFolder()
            try BackingFiles.move(absolute(source), to: absolute(destination))
        }
    }

    public func makeFolder(_ relative: String) throws(StoreError) {
        try requireBackingFolder()
        let folder = absolute(relative)
        guard BackingFiles.status(folder) == nil else { throw .alreadyExists(relative) }
        try BackingFiles.makeDirectories(folder)
    }

    /// Removes an empty folder; a month folder whose document still holds records is not empty.
    public func removeFolder(_ relative: String, month: Month?) throws(StoreError) {
        try withDocumentWrites(month.map(WriteClaim.month) ?? .wholeStore) { () throws(StoreError) in
            try requireBackingFolder()
            if let month, !(try recordFiles(in: month)).isEmpty { throw .notEmpty(relative) }
            let folder = absolute(relative)
            guard BackingFiles.status(folder)?.isDirectory == true else { throw .notFound(relative) }
            guard try BackingFiles.listDirectory(folder).isEmpty else { throw .notEmpty(relative) }
            try BackingFiles.removeDirectory(folder)
            if let month, BackingFiles.status(absolute(month.documentPath)) != nil, try recordFiles(in: month).isEmpty {
                // An empty month: its document has no records left, so it goes with the folder.
                try BackingFiles.remove(absolute(month.documentPath))
                replicas.withState { state in state.months[month] = nil }
            }
        }
    }
}
