import FileTreeInterface
import CFuse3
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One request from the kernel, answered exactly once: each reply consumes the request, so a second reply
/// does not compile, and a request dropped without a reply is answered with `EIO`.
struct KernelRequest: ~Copyable {
    private let raw: fuse_req_t

    init(_ raw: fuse_req_t) {
        self.raw = raw
    }

    /// The server the session was created with.
    var server: KernelServer? {
        fuse_req_userdata(raw).map { Unmanaged<KernelServer>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The thread that made the request (`fuse_req_ctx`); 0 when the kernel names none.
    var threadID: Int32 {
        guard let context = fuse_req_ctx(raw) else { return 0 }
        return context.pointee.pid
    }

    consuming func reply(error: Errno) {
        _ = fuse_reply_err(raw, error.rawValue)
        discard self
    }

    /// The answer to `forget`, which expects none.
    consuming func replyNone() {
        fuse_reply_none(raw)
        discard self
    }

    /// `lookup`, `mkdir`: a name and its attributes, which the kernel may cache for `entryTimeout` and
    /// `timeout` seconds.
    consuming func reply(entry attributes: NodeAttributes, owner: FileOwner, timeout: Double, entryTimeout: Double) {
        var entry = fuse_entry_param(attributes, owner: owner, timeout: timeout, entryTimeout: entryTimeout)
        _ = fuse_reply_entry(raw, &entry)
        discard self
    }

    consuming func reply(attributes: NodeAttributes, owner: FileOwner, timeout: Double) {
        var status = stat(attributes, owner: owner)
        _ = fuse_reply_attr(raw, &status, timeout)
        discard self
    }

    /// `open` and `opendir`.
    consuming func reply(opened: OpenedFile, info: UnsafeMutablePointer<fuse_file_info>) {
        info.pointee.fh = opened.handle
        info.pointee.keep_cache = opened.keepsCache ? 1 : 0
        info.pointee.direct_io = opened.bypassesCache ? 1 : 0
        info.pointee.noflush = opened.needsFlush ? 0 : 1
        info.pointee.cache_readdir = opened.cachesListing ? 1 : 0
        _ = fuse_reply_open(raw, info)
        discard self
    }

    consuming func reply(
        created attributes: NodeAttributes, opened: OpenedFile, info: UnsafeMutablePointer<fuse_file_info>,
        owner: FileOwner, timeout: Double, entryTimeout: Double
    ) {
        var entry = fuse_entry_param(attributes, owner: owner, timeout: timeout, entryTimeout: entryTimeout)
        info.pointee.fh = opened.handle
        info.pointee.keep_cache = 0
        info.pointee.direct_io = 0
        _ = fuse_reply_create(raw, &entry, info)
        discard self
    }

    /// `read`, `getxattr`, `listxattr`, `readdir`: bytes the kernel copies before this returns.
    consuming func reply(bytes: UnsafeRawBufferPointer) {
        _ = fuse_reply_buf(raw, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
        discard self
    }

    consuming func reply(bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            _ = fuse_reply_buf(raw, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count)
        }
        discard self
    }

    consuming func reply(written count: Int) {
        _ = fuse_reply_write(raw, count)
        discard self
    }

    /// `getxattr` and `listxattr` asked with size 0: how big a buffer the answer needs.
    consuming func reply(extendedAttributeSize size: Int) {
        _ = fuse_reply_xattr(raw, size)
        discard self
    }

    consuming func reply(fileSystemStatus: statvfs) {
        var status = fileSystemStatus
        _ = fuse_reply_statfs(raw, &status)
        discard self
    }

    /// Lets a directory reply be built in the request's name (`fuse_add_direntry` needs the request).
    func withRawRequest<Result>(_ body: (fuse_req_t) -> Result) -> Result {
        body(raw)
    }

    deinit {
        _ = fuse_reply_err(raw, Errno.ioError.rawValue)
    }
}

/// The user and group every file of the mount belongs to: whoever mounted it.
struct FileOwner: Sendable {
    var user: uid_t
    var group: gid_t

    static func current() -> FileOwner {
        FileOwner(user: getuid(), group: getgid())
    }
}

extension stat {
    init(_ attributes: NodeAttributes, owner: FileOwner) {
        self.init()
        st_ino = ino_t(attributes.inode)
        st_mode = (attributes.isDirectory ? 0o040000 : 0o100000) | (attributes.permissions & 0o7777)
        // 1 for a folder means "subfolders not counted": fts and find would otherwise take 2 to mean
        // "no subfolders" and not descend (Foundation's directory enumerator saw only the years).
        st_nlink = 1
        st_uid = owner.user
        st_gid = owner.group
        st_size = Int(attributes.size)
        st_blksize = 4096
        st_blocks = (attributes.size + 511) / 512
        st_mtim = timespec(attributes.modificationTime)
        st_ctim = st_mtim
        st_atim = timespec(attributes.accessTime)
    }
}

extension timespec {
    init(_ time: TreeTime) {
        self.init(tv_sec: Int(time.seconds), tv_nsec: Int(time.nanoseconds))
    }
}

extension TreeTime {
    init(_ time: timespec) {
        self.init(seconds: Int64(time.tv_sec), nanoseconds: Int32(clamping: time.tv_nsec))
    }
}

extension fuse_entry_param {
    init(_ attributes: NodeAttributes, owner: FileOwner, timeout: Double, entryTimeout: Double) {
        self.init()
        ino = attributes.inode
        generation = 0  // inode numbers are never reused within a mount
        attr = stat(attributes, owner: owner)
        attr_timeout = timeout
        entry_timeout = entryTimeout
    }
}
