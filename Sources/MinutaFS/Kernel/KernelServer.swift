import FileTreeInterface
import CFuse3
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Answers the kernel's requests from a `FuseFileSystem`: turns the C arguments into Swift values
/// (copying every name and buffer before anything else happens) and the results into replies.
///
/// The session's userdata: libfuse's worker threads reach it through `fuse_req_userdata`.
final class KernelServer: Sendable {
    let fileSystem: FuseFileSystem
    let owner: FileOwner
    /// How long the kernel may trust names and attributes without asking again. Changes made through the
    /// mount update the kernel's caches as they happen; changes underneath are invalidated explicitly.
    let cacheTimeout: Double
    /// Whether the kernel opens files itself (its no-open mode): set at `init` for a read-only mount when
    /// the kernel offers it. `open` and `flush` are then answered with `ENOSYS`, after which the kernel
    /// sends no OPEN, FLUSH or RELEASE at all, and reads come without a handle (see `read`).
    let kernelOpensFiles = Atomic<Bool>(false)
    /// The program of each thread that made a request (what a save is compared with: SPEC 5b).
    let threadGroups = ThreadGroups()
    /// Whether the kernel takes `FUSE_NOTIFY_INC_EPOCH` (protocol 7.44, Linux 6.16), seen at `init`:
    /// `KernelCacheNotifier` then makes the kernel look up changed names again without taking a folder's
    /// lock. Without it, no name is invalidated (that notice takes the folder's lock, which a request the
    /// mount has not answered may hold), so names are cached for `entryTimeoutWithoutEpochs` only.
    let kernelHasEpochs = Atomic<Bool>(true)
    /// How long a kernel without epochs may trust a name: how late it may see a change underneath.
    static let entryTimeoutWithoutEpochs = 1.0

    init(fileSystem: FuseFileSystem, owner: FileOwner, cacheTimeout: Double) {
        self.fileSystem = fileSystem
        self.owner = owner
        self.cacheTimeout = cacheTimeout
    }

    // MARK: Names and attributes

    func lookUp(_ request: consuming KernelRequest, parent: fuse_ino_t, name: UnsafePointer<CChar>?) {
        do throws(Errno) {
            let attributes = try fileSystem.lookUp(try Self.name(name), inDirectory: parent)
            request.reply(entry: attributes, owner: owner, timeout: cacheTimeout, entryTimeout: entryTimeout)
        } catch {
            request.reply(error: error)
        }
    }

    func forget(_ request: consuming KernelRequest, inode: fuse_ino_t, count: UInt64) {
        fileSystem.forget(count, ofInode: inode)
        request.replyNone()
    }

    func forget(_ request: consuming KernelRequest, _ forgets: UnsafeBufferPointer<fuse_forget_data>) {
        for forget in forgets {
            fileSystem.forget(forget.nlookup, ofInode: forget.ino)
        }
        request.replyNone()
    }

    func attributes(_ request: consuming KernelRequest, inode: fuse_ino_t) {
        do throws(Errno) {
            request.reply(attributes: try fileSystem.attributes(ofInode: inode), owner: owner, timeout: cacheTimeout)
        } catch {
            request.reply(error: error)
        }
    }

    func setAttributes(
        _ request: consuming KernelRequest, inode: fuse_ino_t, values: UnsafeMutablePointer<stat>?, fields: Int32,
        info: UnsafeMutablePointer<fuse_file_info>?
    ) {
        guard let values else { return request.reply(error: .invalidArgument) }
        let now = TreeTime.now()
        var changes = AttributeChanges()
        if fields & FUSE_SET_ATTR_SIZE != 0 {
            guard values.pointee.st_size >= 0 else { return request.reply(error: .invalidArgument) }
            changes.size = Int(values.pointee.st_size)
        }
        if fields & FUSE_SET_ATTR_MODE != 0 { changes.permissions = values.pointee.st_mode & 0o7777 }
        if fields & FUSE_SET_ATTR_ATIME_NOW != 0 {
            changes.accessTime = now
        } else if fields & FUSE_SET_ATTR_ATIME != 0 {
            changes.accessTime = TreeTime(values.pointee.st_atim)
        }
        if fields & FUSE_SET_ATTR_MTIME_NOW != 0 {
            changes.modificationTime = now
        } else if fields & FUSE_SET_ATTR_MTIME != 0 {
            changes.modificationTime = TreeTime(values.pointee.st_mtim)
        }
        // Owner changes (vim's fchown of its files to the user they already belong to) are accepted as
        // no-ops, except in read-only views.
        if fields & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID) != 0 { changes.changesOwner = true }
        do throws(Errno) {
            let attributes = try fileSystem.setAttributes(ofInode: inode, handle: info?.pointee.fh, changes)
            request.reply(attributes: attributes, owner: owner, timeout: cacheTimeout)
        } catch {
            request.reply(error: error)
        }
    }

    func checkAccess(_ request: consuming KernelRequest, inode: fuse_ino_t, mask: Int32) {
        do throws(Errno) {
            try fileSystem.checkAccess(inode: inode, mask: mask)
            request.reply(error: Errno(rawValue: 0))
        } catch {
            request.reply(error: error)
        }
    }

    func fileSystemStatus(_ request: consuming KernelRequest) {
        var status = statvfs()
        status.f_bsize = 4096
        status.f_frsize = 4096
        // The tree has no fixed size; report plenty of room so that cp and rsync do not refuse to start.
        status.f_blocks = 1 << 30
        status.f_bfree = 1 << 29
        status.f_bavail = 1 << 29
        status.f_files = 1 << 24
        status.f_ffree = 1 << 23
        status.f_favail = 1 << 23
        status.f_namemax = UInt(Self.longestName)
        request.reply(fileSystemStatus: status)
    }

    // MARK: Files

    /// Called at `init`: a read-only mount saves nothing, so it needs to see no `open` or `close` and
    /// lets the kernel open files itself, when the kernel can.
    func connectionStarted(kernelCanOpenFiles: Bool, protocolMinor: UInt32) {
        kernelOpensFiles.store(fileSystem.isReadOnly && kernelCanOpenFiles, ordering: .relaxed)
        kernelHasEpochs.store(protocolMinor >= 44, ordering: .relaxed)
    }

    /// How long the kernel may trust a name (see `kernelHasEpochs`).
    var entryTimeout: Double {
        kernelHasEpochs.load(ordering: .relaxed) ? cacheTimeout : min(cacheTimeout, Self.entryTimeoutWithoutEpochs)
    }

    func open(_ request: consuming KernelRequest, inode: fuse_ino_t, info: UnsafeMutablePointer<fuse_file_info>?) {
        // ENOSYS turns on the kernel's no-open mode: no OPEN, FLUSH or RELEASE from now on.
        if kernelOpensFiles.load(ordering: .relaxed) { return request.reply(error: Errno(rawValue: ENOSYS)) }
        guard let info else { return request.reply(error: .invalidArgument) }
        do throws(Errno) {
            let opened = try fileSystem.open(inode: inode, flags: OpenFlags(rawValue: info.pointee.flags), program: threadGroups.program(ofThread: request.threadID))
            request.reply(opened: opened, info: info)
        } catch {
            request.reply(error: error)
        }
    }

    func create(
        _ request: consuming KernelRequest, parent: fuse_ino_t, name: UnsafePointer<CChar>?, mode: mode_t,
        info: UnsafeMutablePointer<fuse_file_info>?
    ) {
        guard let info else { return request.reply(error: .invalidArgument) }
        guard mode & 0o170000 == 0o100000 || mode & 0o170000 == 0 else { return request.reply(error: .notPermitted) }
        do throws(Errno) {
            let (attributes, opened) = try fileSystem.create(
                try Self.name(name), inDirectory: parent, permissions: mode & 0o7777,
                flags: OpenFlags(rawValue: info.pointee.flags), program: threadGroups.program(ofThread: request.threadID))
            request.reply(created: attributes, opened: opened, info: info, owner: owner, timeout: cacheTimeout, entryTimeout: entryTimeout)
        } catch {
            request.reply(error: error)
        }
    }

    func read(
        _ request: consuming KernelRequest, inode: fuse_ino_t, size: Int, offset: off_t, info: UnsafeMutablePointer<fuse_file_info>?
    ) {
        guard let info, offset >= 0 else { return request.reply(error: .invalidArgument) }
        do throws(Errno) {
            if info.pointee.fh == 0 && kernelOpensFiles.load(ordering: .relaxed) {
                // No-open mode: the kernel opened the file itself; no handle, read the inode's file.
                return request.reply(bytes: try fileSystem.read(inode: inode, from: Int(offset), length: size))
            }
            request.reply(bytes: try fileSystem.read(handle: info.pointee.fh, from: Int(offset), length: size))
        } catch {
            request.reply(error: error)
        }
    }

    func write(
        _ request: consuming KernelRequest, bytes: UnsafePointer<CChar>?, size: Int, offset: off_t,
        info: UnsafeMutablePointer<fuse_file_info>?
    ) {
        guard let info, offset >= 0, size >= 0 else { return request.reply(error: .invalidArgument) }
        // The kernel's buffer is only valid until this returns: copy it first.
        let copied = bytes.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
        do throws(Errno) {
            try fileSystem.write(copied, handle: info.pointee.fh, at: Int(offset))
            request.reply(written: size)
        } catch {
            request.reply(error: error)
        }
    }

    /// `flush` (every `close` of a descriptor) and `fsync`: save if changed; the error reaches the program.
    func save(_ request: consuming KernelRequest, info: UnsafeMutablePointer<fuse_file_info>?, isFlush: Bool) {
        // A read-only mount has nothing to save; ENOSYS makes the kernel stop sending FLUSH.
        if isFlush && fileSystem.isReadOnly { return request.reply(error: Errno(rawValue: ENOSYS)) }
        guard let info else { return request.reply(error: .invalidArgument) }
        // No-open mode: an fsync of a file the kernel opened itself, which has nothing to save.
        if info.pointee.fh == 0 && kernelOpensFiles.load(ordering: .relaxed) { return request.reply(error: Errno(rawValue: 0)) }
        do throws(Errno) {
            try fileSystem.save(handle: info.pointee.fh, isFlush: isFlush, program: threadGroups.program(ofThread: request.threadID))
            request.reply(error: Errno(rawValue: 0))
        } catch {
            request.reply(error: error)
        }
    }

    func release(_ request: consuming KernelRequest, info: UnsafeMutablePointer<fuse_file_info>?) {
        if let info, info.pointee.fh != 0 { fileSystem.release(handle: info.pointee.fh) }
        request.reply(error: Errno(rawValue: 0))
    }

    // MARK: Directories

    func openDirectory(_ request: consuming KernelRequest, inode: fuse_ino_t, info: UnsafeMutablePointer<fuse_file_info>?) {
        guard let info else { return request.reply(error: .invalidArgument) }
        do throws(Errno) {
            // The kernel keeps listings (and keeps them across opens) until the folder changes through the
            // mount, or `treeDidChange` invalidates the folder's inode: a warm `ls -R` sends no readdir.
            request.reply(opened: try fileSystem.openDirectory(inode: inode), info: info)
        } catch {
            request.reply(error: error)
        }
    }

    /// `fsyncdir`: what the mount owes the folder (removals, files held while written) made durable.
    func syncDirectory(_ request: consuming KernelRequest, inode: fuse_ino_t) {
        do throws(Errno) {
            try fileSystem.syncDirectory(inode: inode)
            request.reply(error: Errno(rawValue: 0))
        } catch {
            request.reply(error: error)
        }
    }

    func releaseDirectory(_ request: consuming KernelRequest, info: UnsafeMutablePointer<fuse_file_info>?) {
        if let info { fileSystem.closeDirectory(handle: info.pointee.fh) }
        request.reply(error: Errno(rawValue: 0))
    }

    /// `readdir` and `readdirplus`: as many entries from `offset` as fit in `size` bytes. Entry *i* of the
    /// listing carries offset *i + 1*, the offset to continue from.
    func readDirectory(
        _ request: consuming KernelRequest, inode: fuse_ino_t, size: Int, offset: off_t,
        info: UnsafeMutablePointer<fuse_file_info>?, withAttributes: Bool
    ) {
        guard let info, offset >= 0 else { return request.reply(error: .invalidArgument) }
        let listing: [TreeEntry]
        do throws(Errno) {
            listing = try fileSystem.listing(ofDirectoryHandle: info.pointee.fh, inode: inode, fromStart: offset == 0)
        } catch {
            return request.reply(error: error)
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        var used = 0
        // Inodes given a reference by `listedAttributes` and not (yet) sent in this reply.
        var unsent: [UInt64: Int] = [:]
        var index = Int(offset)
        // The attributes of as many entries as can fit (an entry takes at least 152 bytes), asked at once.
        var listed: [ExactPath: NodeAttributes] = [:]  // by name, byte for byte
        if withAttributes && index < listing.count {
            let fitting = listing[index..<min(listing.count, index + size / 152 + 1)].map(\.name).filter { $0 != "." && $0 != ".." }
            for (name, attributes) in zip(fitting, fileSystem.listedAttributes(of: fitting, inDirectory: inode)) {
                listed[ExactPath(name)] = attributes
                if let attributes { unsent[attributes.inode, default: 0] += 1 }
            }
        }
        while index < listing.count {
            let entry = listing[index]
            let nextOffset = off_t(index + 1)
            let isDotEntry = entry.name == "." || entry.name == ".."
            let added: Int
            if withAttributes {
                var attributes: NodeAttributes
                if isDotEntry {
                    attributes = NodeAttributes(inode: 0, TreeAttributes(isDirectory: true, size: 0, modificationTime: TreeTime(seconds: 0), isWritable: true))
                } else if let found = listed.removeValue(forKey: ExactPath(entry.name)) {
                    attributes = found
                } else if let found = fileSystem.listedAttributes(of: entry.name, inDirectory: inode) {
                    attributes = found
                    unsent[found.inode, default: 0] += 1
                } else {
                    index += 1  // gone since the listing was taken
                    continue
                }
                var parameters = fuse_entry_param(attributes, owner: owner, timeout: cacheTimeout, entryTimeout: entryTimeout)
                if isDotEntry {
                    parameters.attr.st_ino = ino_t(inode)  // shown as d_ino; no reference is taken for . and ..
                }
                added = entry.name.withCString { name in
                    request.withRawRequest { raw in
                        fuse_add_direntry_plus(
                            raw, buffer.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) + used },
                            size - used, name, &parameters, nextOffset)
                    }
                }
                if added <= size - used && !isDotEntry {
                    unsent[attributes.inode, default: 0] -= 1  // sent: the kernel holds this reference
                }
            } else {
                var status = stat()
                status.st_ino = ino_t(isDotEntry ? inode : fileSystem.listedInode(of: entry.name, inDirectory: inode))
                status.st_mode = entry.isDirectory ? 0o040000 : 0o100000
                added = entry.name.withCString { name in
                    request.withRawRequest { raw in
                        fuse_add_direntry(
                            raw, buffer.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) + used },
                            size - used, name, &status, nextOffset)
                    }
                }
            }
            if added > size - used { break }
            used += added
            index += 1
        }
        let leftOut = unsent.flatMap { inode, count in Array(repeating: inode, count: max(0, count)) }
        if !leftOut.isEmpty {
            fileSystem.returnReferences(toInodes: leftOut)
        }
        request.reply(bytes: UnsafeRawBufferPointer(rebasing: buffer[..<used]))
    }

    func makeDirectory(_ request: consuming KernelRequest, parent: fuse_ino_t, name: UnsafePointer<CChar>?) {
        do throws(Errno) {
            let attributes = try fileSystem.makeDirectory(try Self.name(name), inDirectory: parent)
            request.reply(entry: attributes, owner: owner, timeout: cacheTimeout, entryTimeout: entryTimeout)
        } catch {
            request.reply(error: error)
        }
    }

    func removeDirectory(_ request: consuming KernelRequest, parent: fuse_ino_t, name: UnsafePointer<CChar>?) {
        do throws(Errno) {
            try fileSystem.removeDirectory(try Self.name(name), inDirectory: parent)
            request.reply(error: Errno(rawValue: 0))
        } catch {
            request.reply(error: error)
        }
    }

    func unlink(_ request: consuming KernelRequest, parent: fuse_ino_t, name: UnsafePointer<CChar>?) {
        do throws(Errno) {
            try fileSystem.unlink(try Self.name(name), inDirectory: parent)
            request.reply(error: Errno(rawValue: 0))
        } catch {
            request.reply(error: error)
        }
    }

    /// `symlink`, `mknod` and `link`: refused, always (see ``FuseFileSystem/refuseSpecialNode(_:inDirectory:)``).
    func makeSpecialNode(_ request: consuming KernelRequest, parent: fuse_ino_t, name: UnsafePointer<CChar>?) {
        do throws(Errno) {
            try fileSystem.refuseSpecialNode(try Self.name(name), inDirectory: parent)
        } catch {
            request.reply(error: error)
        }
    }

    func rename(
        _ request: consuming KernelRequest, parent: fuse_ino_t, name: UnsafePointer<CChar>?, newParent: fuse_ino_t,
        newName: UnsafePointer<CChar>?, flags: UInt32
    ) {
        do throws(Errno) {
            try fileSystem.rename(
                try Self.name(name), inDirectory: parent, to: try Self.name(newName), inDirectory: newParent,
                flags: RenameFlags(rawValue: flags), program: threadGroups.program(ofThread: request.threadID))
            request.reply(error: Errno(rawValue: 0))
        } catch {
            request.reply(error: error)
        }
    }

    // MARK: Extended attributes

    /// `getxattr`: `ENODATA` for a name the file lacks; with size 0 the value's length; `ERANGE` when the
    /// caller's buffer is too small.
    func extendedAttribute(_ request: consuming KernelRequest, inode: fuse_ino_t, name: UnsafePointer<CChar>?, size: Int) {
        do throws(Errno) {
            let attributeName = try Self.name(name)
            guard let value = try fileSystem.extendedAttribute(named: attributeName, ofInode: inode) else {
                throw Errno(rawValue: ENODATA)
            }
            Self.reply(request, with: value, bufferSize: size)
        } catch {
            request.reply(error: error)
        }
    }

    /// `listxattr`: the names, each followed by a NUL byte, with the same size rules as `getxattr`.
    func extendedAttributeNames(_ request: consuming KernelRequest, inode: fuse_ino_t, size: Int) {
        do throws(Errno) {
            let names = try fileSystem.extendedAttributes(ofInode: inode).keys.sorted()
            Self.reply(request, with: names.flatMap { Array($0.utf8) + [0] }, bufferSize: size)
        } catch {
            request.reply(error: error)
        }
    }

    private static func reply(_ request: consuming KernelRequest, with value: [UInt8], bufferSize: Int) {
        if bufferSize == 0 {
            request.reply(extendedAttributeSize: value.count)
        } else if bufferSize < value.count {
            request.reply(error: .outOfRange)
        } else {
            request.reply(bytes: value)
        }
    }

    // MARK: Helpers

    /// The longest name a folder entry may have (NAME_MAX, as `statfs` says). The kernel passes FUSE
    /// names of up to 1024 bytes; a longer one than this could never be written to the backing folder.
    static let longestName = 255

    /// A name from the kernel as a Swift string (copied).
    ///
    /// - Throws: `EINVAL` for a name that is not UTF-8: the tree's paths are strings; `ENAMETOOLONG` for
    ///   one past ``longestName`` bytes, so a file the backing folder could not hold is refused at once.
    private static func name(_ name: UnsafePointer<CChar>?) throws(Errno) -> String {
        guard let name else { throw .invalidArgument }
        if strnlen(name, longestName + 1) > longestName { throw .fileNameTooLong }
        guard let string = String(validatingCString: name), !string.isEmpty else { throw .invalidArgument }
        return string
    }
}
