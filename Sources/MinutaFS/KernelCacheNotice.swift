/// Something the kernel has cached that is no longer true.
enum KernelCacheNotice: Hashable, Sendable {
    /// The attributes and cached contents of an inode.
    case inode(UInt64)
    /// The name `name` in directory `parent` (and the directory's attributes).
    case entry(parent: UInt64, name: String)
}

/// Where the file system sends its cache notices: the kernel session, or a recorder in tests.
protocol KernelCacheInvalidating: Sendable {
    /// Drops the kernel's cached attributes and contents of `inode` before returning.
    ///
    /// Called from inside a request handler (flush, fsync, release, rename, setattr) so that the program's
    /// next `stat` or `read` sees what the tree holds. Safe there: the kernel takes no inode or directory
    /// lock for this notice.
    func invalidateNow(inode: UInt64)

    /// Sends the notices from another thread, soon: entry notices take directory locks, so they must
    /// never be sent from inside a request handler.
    func invalidateSoon(_ notices: [KernelCacheNotice])
}
