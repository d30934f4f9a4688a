/// Something the kernel has cached that is no longer true.
enum KernelCacheNotice: Hashable, Sendable {
    /// The attributes and cached contents of an inode.
    case inode(UInt64)
    /// The name `name` in directory `parent` (and the directory's attributes).
    case entry(parent: UInt64, name: String)
}

/// Where the file system sends its cache notices: the kernel session, or a recorder in tests.
protocol KernelCacheInvalidating: Sendable {
    /// Drops what the kernel cached of `notices` before returning.
    ///
    /// Called from inside request handlers (flush, fsync, release, rename, setattr, read) and from the
    /// tree's own threads, so that a program's next `stat`, `open` or `readdir` after the answer sees what
    /// the tree holds: a save that renamed a record is listed under its new name by the `ls` right after
    /// the `close`. Safe there because every notice is of a kind the kernel sends without taking a lock
    /// that a request can hold while it waits for its answer (see `KernelCacheNotifier`).
    func invalidate(_ notices: [KernelCacheNotice])
}

extension KernelCacheInvalidating {
    /// Drops the kernel's cached attributes of `inode` (and its pages, at their next use) before returning.
    func invalidate(inode: UInt64) {
        invalidate([.inode(inode)])
    }
}
