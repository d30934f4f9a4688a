/// Files the store passes through (`Backing/PassThroughFiles.swift` decides): images in month folders
/// and anything else in the backing folder that is not a document. Writes run in the month's write
/// lane, or the whole store's outside a month folder.
extension Store {
    /// Reads a passed-through file, `relative` to the store.
    public func passThroughContents(_ relative: String) throws(StoreError) -> [UInt8] {
        try passThrough.contents(relative)
    }

    public func passThroughStatus(_ relative: String) -> (isDirectory: Bool, size: Int, modificationSeconds: Int, modificationNanoseconds: Int)? {
        passThrough.status(relative)
    }

    /// The entries of a backing folder, without documents, conflict copies and sync-tool files,
    /// and without symbolic links (never followed out of the store).
    public func passThroughEntries(_ relative: String) throws(StoreError) -> [(name: String, isDirectory: Bool)] {
        try passThrough.entries(relative)
    }

    /// Writes a passed-through file atomically; in a month folder, an image named after one of the
    /// month's records is attached to it.
    public func writePassThrough(_ bytes: [UInt8], to relative: String, month: Month?) throws(StoreError) {
        guard bytes.count <= Self.maximumPassThroughFileSize else {
            recordOversizedWrite(toPath: relative, limit: Self.maximumPassThroughFileSize)
            throw .rejected(file: relative, line: nil, column: nil, reason: .tooLarge(limit: Self.maximumPassThroughFileSize))
        }
        try withDocumentWrites(month.map(WriteClaim.month) ?? .wholeStore) { () throws(StoreError) in
            try passThrough.write(bytes, to: relative, month: month)
        }
    }

    public func removePassThrough(_ relative: String, month: Month?) throws(StoreError) {
        try withDocumentWrites(month.map(WriteClaim.month) ?? .wholeStore) { () throws(StoreError) in
            try passThrough.remove(relative, month: month)
        }
    }

    public func renamePassThrough(from source: String, to destination: String) throws(StoreError) {
        try withDocumentWrites(.wholeStore) { () throws(StoreError) in try passThrough.rename(from: source, to: destination) }
    }

    public func makeFolder(_ relative: String) throws(StoreError) {
        try passThrough.makeFolder(relative)
    }

    /// Removes an empty folder; a month folder whose document still holds records is not empty.
    public func removeFolder(_ relative: String, month: Month?) throws(StoreError) {
        try withDocumentWrites(month.map(WriteClaim.month) ?? .wholeStore) { () throws(StoreError) in
            try passThrough.removeFolder(relative, month: month)
        }
    }
}
