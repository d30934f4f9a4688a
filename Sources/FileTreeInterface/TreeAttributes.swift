/// What `stat` shows of a file or directory of the tree.
public struct TreeAttributes: Sendable, Equatable {
    public var isDirectory: Bool
    /// The exact byte count of the file's contents (what `contents(ofPath:)` returns); ignored for directories.
    public var size: Int
    public var modificationTime: TreeTime
    /// False for read-only views such as `.minutafs/status`: the mount shows them with mode 0444 and refuses
    /// to open them for writing.
    public var isWritable: Bool
    /// Whether the contents may change without the tree reporting it (`setChangeHandler`), such as
    /// `.minutafs/status` or a report with a running timer: the mount then reads them afresh at every
    /// open (`direct_io`). Otherwise the kernel keeps their pages until the tree reports a change, as
    /// for every writable file. By default, the read-only files.
    public var changesWithoutNotice: Bool

    public init(isDirectory: Bool, size: Int, modificationTime: TreeTime, isWritable: Bool, changesWithoutNotice: Bool? = nil) {
        self.isDirectory = isDirectory
        self.size = size
        self.modificationTime = modificationTime
        self.isWritable = isWritable
        self.changesWithoutNotice = changesWithoutNotice ?? !isWritable
    }
}
