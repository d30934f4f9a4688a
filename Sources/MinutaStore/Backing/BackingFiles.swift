import CLinuxCalls
import SystemPackage
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The system calls the store needs, with typed errors and EINTR retried. Paths are absolute.
package enum BackingFiles {
    package struct Identity: Equatable, Sendable {
        package var device: UInt64
        package var inode: UInt64
        package var size: Int64
        package var modificationSeconds: Int
        package var modificationNanoseconds: Int
    }

    package struct Status: Sendable {
        package var isDirectory: Bool
        package var isRegularFile: Bool
        package var isSymbolicLink: Bool
        package var size: Int64
        package var modificationSeconds: Int
        package var modificationNanoseconds: Int
        package var identity: Identity
    }

    /// `lstat`: never follows a symbolic link.
    package static func status(_ path: String) -> Status? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        let identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                                modificationSeconds: Int(info.st_mtim.tv_sec), modificationNanoseconds: Int(info.st_mtim.tv_nsec))
        return Status(isDirectory: type == S_IFDIR, isRegularFile: type == S_IFREG, isSymbolicLink: type == S_IFLNK,
                      size: Int64(info.st_size), modificationSeconds: Int(info.st_mtim.tv_sec),
                      modificationNanoseconds: Int(info.st_mtim.tv_nsec), identity: identity)
    }

    /// The names in a folder (without `.` and `..`), sorted by their UTF-8 bytes.
    package static func listDirectory(_ path: String) throws(StoreError) -> [String] {
        try directoryEntries(path).map(\.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The names in a folder with whether each is a folder, from the entries' types (`d_type`) where
    /// the file system gives them, else from `lstat`: listing a folder of images stats none of them.
    package static func listDirectoryKinds(_ path: String) throws(StoreError) -> [(name: String, isDirectory: Bool)] {
        try directoryEntries(path).map { entry in
            let isDirectory = entry.type == UInt8(DT_UNKNOWN)
                ? status(path + "/" + entry.name)?.isDirectory == true : entry.type == UInt8(DT_DIR)
            return (entry.name, isDirectory)
        }
    }

    /// `readdir`: each entry's name and `d_type`, in the folder's order, without `.` and `..`.
    ///
    /// A name that is not valid UTF-8 is left out: decoded with replacement characters it would be a
    /// name that does not exist (and two such names could look alike), so every operation on it would
    /// fail or reach the wrong file. The file stays in the folder untouched; nothing the store does
    /// removes or renames what it does not list.
    private static func directoryEntries(_ path: String) throws(StoreError) -> [(name: String, type: UInt8)] {
        guard let directory = opendir(path) else { throw .system(file: path, operation: "opendir", errno: Errno(rawValue: errno)) }
        defer { closedir(directory) }
        var entries: [(name: String, type: UInt8)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(validating: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if let name, name != "." && name != ".." { entries.append((name, entry.pointee.d_type)) }
        }
        return entries
    }

    /// `open(2)`, tried again when a signal interrupts it.
    static func openRetrying(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        var descriptor: Int32
        repeat { descriptor = open(path, flags, mode) } while descriptor < 0 && errno == EINTR
        return descriptor
    }

    /// Reads a whole regular file, refusing symbolic links and anything over `limit` bytes.
    package static func read(_ path: String, limit: Int = 1 << 30, followingSymbolicLinks: Bool = false) throws(StoreError) -> [UInt8] {
        try readWithIdentity(path, limit: limit, followingSymbolicLinks: followingSymbolicLinks).bytes
    }

    /// ``read(_:limit:followingSymbolicLinks:)``, with the identity of the file the bytes came from
    /// (taken from the open descriptor, so it names exactly that file even if the name is replaced).
    package static func readWithIdentity(_ path: String, limit: Int = 1 << 30, followingSymbolicLinks: Bool = false) throws(StoreError) -> (bytes: [UInt8], identity: Identity) {
        var descriptor: Int32
        repeat { descriptor = open(path, O_RDONLY | O_CLOEXEC | (followingSymbolicLinks ? 0 : O_NOFOLLOW)) } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw .system(file: path, operation: "open", errno: Errno(rawValue: errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system(file: path, operation: "fstat", errno: Errno(rawValue: errno)) }
        let identity = Identity(info)
        guard info.st_mode & S_IFMT == S_IFREG else { throw .system(file: path, operation: "read", errno: .isDirectory) }
        guard Int(info.st_size) <= limit else { throw .system(file: path, operation: "read", errno: .fileTooLarge) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(file: path, operation: "read", errno: Errno(rawValue: errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= limit else { throw .system(file: path, operation: "read", errno: .fileTooLarge) }
        }
        return (bytes, identity)
    }

    /// Writes a file atomically: a temporary file in the same folder, fsync, rename over the
    /// target, fsync of the folder. A reader (or a sync tool) sees the old file or the new one,
    /// never half of one.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(StoreError) {
        // A file that exists keeps its permissions.
        var existing = stat()
        let mode = lstat(path, &existing) == 0 && existing.st_mode & S_IFMT == S_IFREG ? existing.st_mode & 0o7777 : permissions
        let folder = parentPath(path)
        let name = lastComponent(path)
        var random = SystemRandomNumberGenerator()
        let temporary = folder + "/" + temporaryName(for: name, suffix: String(UInt64.random(in: 0...UInt64.max, using: &random), radix: 16))
        let descriptor = openRetrying(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, permissions)
        guard descriptor >= 0 else { throw .system(file: path, operation: "create temporary file", errno: Errno(rawValue: errno)) }
        var failure: StoreError?
        copyOwnership(from: path, to: descriptor)
        if fchmod(descriptor, mode) != 0 { failure = .system(file: path, operation: "fchmod", errno: Errno(rawValue: errno)) }
        failure = finishWriting(bytes, to: descriptor, path: path, failure: failure)
        if failure == nil && rename(temporary, path) != 0 { failure = .system(file: path, operation: "rename", errno: Errno(rawValue: errno)) }
        if let failure {
            // Our own temporary file, never renamed: nothing else can be in it.
            unlink(temporary)
            throw failure
        }
        try syncDirectory(folder)
    }

    /// Writes a file whose loss in a crash costs nothing (a cache entry): a temporary file in the same
    /// folder renamed over the target, so a reader sees the old file or the new one, but no fsync.
    package static func writeWithoutSync(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o600) throws(StoreError) {
        var random = SystemRandomNumberGenerator()
        let temporary = parentPath(path) + "/" + temporaryName(for: lastComponent(path), suffix: String(UInt64.random(in: 0...UInt64.max, using: &random), radix: 16))
        var descriptor: Int32
        repeat { descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, permissions) } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw .system(file: path, operation: "create temporary file", errno: Errno(rawValue: errno)) }
        var failure = finishWriting(bytes, to: descriptor, path: path, syncing: false)
        if failure == nil && rename(temporary, path) != 0 { failure = .system(file: path, operation: "rename", errno: Errno(rawValue: errno)) }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// Writes `bytes` to a new temporary file beside `path` (see ``temporaryName(for:suffix:)``) with
    /// `mode`, fsynced and closed. Returns its path and its identity, which a rename keeps: after the
    /// file is swapped in, that identity at `path` means the file is still the one we wrote.
    /// The temporary file takes the owner and group of `ownerOf` (default: `path`), as a replacement should.
    package static func writeTemporary(_ bytes: [UInt8], beside path: String, mode: mode_t, ownerOf: String? = nil) throws(StoreError) -> (path: String, identity: Identity) {
        var random = SystemRandomNumberGenerator()
        let temporary = parentPath(path) + "/" + temporaryName(for: lastComponent(path), suffix: String(UInt64.random(in: 0...UInt64.max, using: &random), radix: 16))
        var descriptor: Int32
        repeat { descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode) } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw .system(file: path, operation: "create temporary file", errno: Errno(rawValue: errno)) }
        var failure: StoreError?
        if fchmod(descriptor, mode) != 0 { failure = .system(file: path, operation: "fchmod", errno: Errno(rawValue: errno)) }
        copyOwnership(from: ownerOf ?? path, to: descriptor)
        var info = stat()
        if failure == nil {
            failure = finishWriting(bytes, to: descriptor, path: path, closing: false)
            if failure == nil && fstat(descriptor, &info) != 0 { failure = .system(file: path, operation: "fstat", errno: Errno(rawValue: errno)) }
        }
        if close(descriptor) != 0 && failure == nil { failure = .system(file: path, operation: "close", errno: Errno(rawValue: errno)) }
        if let failure {
            // Our own temporary file, never renamed: nothing else can be in it.
            unlink(temporary)
            throw failure
        }
        return (temporary, Identity(info))
    }

    /// The permission bits a replacement of `path` gets: those of the file there, else `fallback`.
    package static func mode(ofExisting path: String, fallback: mode_t = 0o644) -> mode_t {
        var existing = stat()
        return lstat(path, &existing) == 0 && existing.st_mode & S_IFMT == S_IFREG ? existing.st_mode & 0o7777 : fallback
    }

    /// Swaps the files at two paths in one step (`renameat2` with `RENAME_EXCHANGE`). Returns false,
    /// having changed nothing, where the file system cannot exchange (then rename with a re-check).
    package static func exchange(_ first: String, _ second: String) throws(StoreError) -> Bool {
        if FaultInjection.failure(for: .exchange, path: second) != nil { return false }
        guard minutafs_renameat2(AT_FDCWD, first, AT_FDCWD, second, minutafs_rename_exchange) == 0 else {
            let code = errno
            if code == EINVAL || code == ENOSYS || code == ENOTSUP || code == EOPNOTSUPP { return false }
            throw .system(file: second, operation: "exchange", errno: Errno(rawValue: code))
        }
        return true
    }

    /// Renames `source` to `destination` unless something is already there (`RENAME_NOREPLACE`).
    /// Returns false when `destination` exists; falls back to `link` and `unlink` where the file
    /// system lacks the flag.
    package static func renameWithoutReplacing(_ source: String, to destination: String) throws(StoreError) -> Bool {
        if minutafs_renameat2(AT_FDCWD, source, AT_FDCWD, destination, minutafs_rename_noreplace) == 0 { return true }
        let code = errno
        if code == EEXIST { return false }
        guard code == EINVAL || code == ENOSYS || code == ENOTSUP || code == EOPNOTSUPP else {
            throw .system(file: destination, operation: "rename", errno: Errno(rawValue: code))
        }
        guard link(source, destination) == 0 else {
            if errno == EEXIST { return false }
            throw .system(file: destination, operation: "link", errno: Errno(rawValue: errno))
        }
        // Both names are the same file now; the temporary one goes.
        unlink(source)
        return true
    }

    /// Writes all of `bytes` (unless `failure` already happened), fsyncs (unless not `syncing`) and
    /// closes `descriptor`, and returns the first failure.
    package static func finishWriting(
        _ bytes: [UInt8], to descriptor: Int32, path: String, failure initial: StoreError? = nil, closing: Bool = true, syncing: Bool = true
    ) -> StoreError? {
        var failure = initial
        var written = 0
        while written < bytes.count && failure == nil {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress?.advanced(by: written), bytes.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                failure = .system(file: path, operation: "write", errno: Errno(rawValue: errno))
            } else {
                written += count
            }
        }
        if syncing && failure == nil && fsync(descriptor) != 0 { failure = .system(file: path, operation: "fsync", errno: Errno(rawValue: errno)) }
        if closing && close(descriptor) != 0 && failure == nil { failure = .system(file: path, operation: "close", errno: Errno(rawValue: errno)) }
        return failure
    }

    /// The name of ``writeAtomically(_:to:permissions:)``'s temporary file for `name`:
    /// `.NAME.minutafs-HEX.tmp`, hidden, and never shown by the mount.
    package static func temporaryName(for name: String, suffix: String) -> String {
        "." + name + ".minutafs-" + suffix + ".tmp"
    }

    /// Whether `name` is one of ``writeAtomically(_:to:permissions:)``'s temporary files (left
    /// behind only when the process died between creating it and renaming it).
    package static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp"), let marker = name.ranges(of: ".minutafs-").last else { return false }
        let suffix = name[marker.upperBound..<name.index(name.endIndex, offsetBy: -4)]
        return (1...16).contains(suffix.utf8.count) && suffix.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Makes a folder's entries durable (a rename or unlink in it survives a crash).
    /// - Throws: when the folder cannot be opened or `fsync` fails: the entry may not be on disk.
    package static func syncDirectory(_ path: String) throws(StoreError) {
        let descriptor = openRetrying(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(file: path, operation: "open folder for fsync", errno: Errno(rawValue: errno)) }
        defer { close(descriptor) }
        if let injected = FaultInjection.failure(for: .fsyncDirectory, path: path) {
            throw .system(file: path, operation: "fsync of the folder", errno: Errno(rawValue: injected))
        }
        guard fsync(descriptor) == 0 else { throw .system(file: path, operation: "fsync of the folder", errno: Errno(rawValue: errno)) }
    }

    package static func remove(_ path: String) throws(StoreError) {
        guard unlink(path) == 0 else { throw .system(file: path, operation: "unlink", errno: Errno(rawValue: errno)) }
        try syncDirectory(parentPath(path))
    }

    package static func move(_ source: String, to destination: String) throws(StoreError) {
        guard rename(source, destination) == 0 else { throw .system(file: source, operation: "rename", errno: Errno(rawValue: errno)) }
        try syncDirectory(parentPath(destination))
        if parentPath(source) != parentPath(destination) { try syncDirectory(parentPath(source)) }
    }

    package static func makeDirectory(_ path: String, permissions: mode_t = 0o755) throws(StoreError) {
        if mkdir(path, permissions) != 0 && errno != EEXIST { throw .system(file: path, operation: "mkdir", errno: Errno(rawValue: errno)) }
    }

    package static func makeDirectories(_ path: String) throws(StoreError) {
        // A relative path stays relative: its first folder is not made at the root.
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if status(current)?.isDirectory == true { continue }
            try makeDirectory(current)
        }
    }

    package static func removeDirectory(_ path: String) throws(StoreError) {
        guard rmdir(path) == 0 else { throw .system(file: path, operation: "rmdir", errno: Errno(rawValue: errno)) }
    }

    package static func parentPath(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    package static func lastComponent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}


/// Whole-file reads and atomic, durable writes for the command line's document commands.
public enum DocumentFileAccess {
    /// Reads a file, following a symbolic link the user named.
    public static func read(_ path: String) throws(StoreError) -> [UInt8] {
        try BackingFiles.read(path, followingSymbolicLinks: true)
    }

    /// Replaces a file atomically and durably (temporary file, fsync, rename, fsync of the folder),
    /// keeping its permissions; a symbolic link is written through to its target.
    public static func write(_ bytes: [UInt8], to path: String) throws(StoreError) {
        var target = path
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        if let status = BackingFiles.status(path), status.isSymbolicLink, realpath(path, &buffer) != nil {
            target = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        try BackingFiles.writeAtomically(bytes, to: target)
    }
}

extension BackingFiles.Identity {
    package init(_ info: stat) {
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                  modificationSeconds: Int(info.st_mtim.tv_sec), modificationNanoseconds: Int(info.st_mtim.tv_nsec))
    }
}
