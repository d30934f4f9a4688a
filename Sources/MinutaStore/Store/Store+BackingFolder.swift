import SystemPackage

/// The store's side of `Backing/BackingFolder.swift`: writes and synchronization passes ask first.
extension Store {
    /// Whether the folder at the store's path is still the one the store was opened on.
    public var backingFolderIsPresent: Bool { backingFolder.isPresent }

    /// Where the backing folder was moved to, while mounted (nil: not moved, deleted, or not known).
    public var backingFolderMovedTo: FilePath? { backingFolder.movedTo.map { FilePath($0) } }

    /// Throws ``StoreError/backingFolderGone(_:)`` when the backing folder is not the one the store was
    /// opened on, noting it (once) for `.minutafs/errors`, status and the log. Every write calls it
    /// before it touches the folder.
    public func requireBackingFolder() throws(StoreError) {
        try backingFolder.require()
    }

    /// Throws what a change of the document at `relative` would fail with now: the folder is gone, or the
    /// file is known not to load and is still that version (SPEC 5a).
    public func requireWritableDocument(_ relative: String) throws(StoreError) {
        try requireBackingFolder()
        try documentFiles.requireReadableFile(relative)
    }
}
