import FileTreeInterface
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the mount tells the kernel about one file or directory (a `struct stat`, without the C).
struct NodeAttributes: Equatable {
    var inode: UInt64
    var isDirectory: Bool
    var size: Int
    /// Permission bits: 0644 or 0444 for files of the tree, 0755 for directories, as given for scratch files.
    var permissions: UInt32
    var modificationTime: TreeTime
    var accessTime: TreeTime

    init(inode: UInt64 = 0, _ attributes: TreeAttributes) {
        self.inode = inode
        self.isDirectory = attributes.isDirectory
        self.size = attributes.isDirectory ? 0 : attributes.size
        self.permissions = attributes.isDirectory ? 0o755 : (attributes.isWritable ? 0o644 : 0o444)
        self.modificationTime = attributes.modificationTime
        self.accessTime = attributes.modificationTime
    }

    init(inode: UInt64 = 0, _ file: ScratchFile) {
        self.inode = inode
        self.isDirectory = false
        self.size = file.contents.count
        self.permissions = file.permissions
        self.modificationTime = file.modificationTime
        self.accessTime = file.accessTime
    }

    /// A file of the tree as an open handle sees it before its changes are saved.
    init(inode: UInt64, _ file: OpenFile) {
        self.inode = inode
        self.isDirectory = false
        self.size = file.contents?.count ?? 0
        self.permissions = 0o644
        self.modificationTime = file.modificationTime
        self.accessTime = file.modificationTime
    }
}

extension TreeTime {
    /// The current wall-clock time.
    static func now() -> TreeTime {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return TreeTime(seconds: Int64(time.tv_sec), nanoseconds: Int32(time.tv_nsec))
    }
}
