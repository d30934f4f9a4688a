import CLinuxCalls
import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The system calls the store makes on its backing folder, with typed errors (`StoreError.system`
/// carries the `Errno`). Files are opened, read, written, stat'ed and closed through swift-system's
/// `FileDescriptor` and `Stat` (which retry a call a signal interrupts); `lstat`, `fsync`, `renameat2`,
/// the directory listing and `fchmod`/`fchown` call the C library (the first two for speed: see
/// `status`; the others have no swift-system form). Paths are absolute `String`s; a name that is not
/// UTF-8 is reached as bytes (`entryNames`, `removeTree`), never decoded into a name that does not exist.
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
        // lstat(2) itself: building a `FilePath` to call swift-system's `stat` costs a hundred times
        // the call in a debug build, and this runs for every document at every synchronization pass.
        var raw = stat()
        guard lstat(path, &raw) == 0 else { return nil }
        let info = Stat(rawValue: raw)
        let identity = Identity(info)
        return Status(isDirectory: info.type == .directory, isRegularFile: info.type == .regular, isSymbolicLink: info.type == .symbolicLink,
                      size: identity.size, modificationSeconds: identity.modificationSeconds,
                      modificationNanoseconds: identity.modificationNanoseconds, identity: identity)
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

    /// Calls `body` with each entry of a folder as `readdir` gives it (its name's bytes, without the
    /// NUL, and its `d_type`), in the folder's order, without `.` and `..`.
    private static func forEachEntry(
        _ path: UnsafePointer<CChar>, _ body: (UnsafeRawBufferPointer, UInt8) -> Void
    ) -> Bool {
        guard let directory = opendir(path) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let name = UnsafeRawBufferPointer(rebasing: raw.prefix(while: { $0 != 0 }))
                let isDot = name.count == 1 && name[0] == UInt8(ascii: ".")
                let isDotDot = name.count == 2 && name[0] == UInt8(ascii: ".") && name[1] == UInt8(ascii: ".")
                if !isDot && !isDotDot { body(name, entry.pointee.d_type) }
            }
        }
        return true
    }

    /// Calls `body` with `bytes` as a C string (a path whose name may not be UTF-8).
    static func withCString<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T? {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { $0.baseAddress.map(body) }
        }
    }

    /// The names in a folder as the bytes on disk, UTF-8 or not (see ``removeTree(_:)``).
    package static func entryNames(_ path: [UInt8]) throws(StoreError) -> [[UInt8]] {
        var names: [[UInt8]] = []
        let listed = withCString(path) { path in forEachEntry(path) { name, _ in names.append(Array(name)) } } ?? false
        guard listed else { throw .system(file: String(decoding: path, as: UTF8.self), operation: "opendir", errno: Errno(rawValue: errno)) }
        return names
    }

    /// `readdir`: each entry's name and `d_type`, in the folder's order, without `.` and `..`.
    ///
    /// A name that is not valid UTF-8 is left out: decoded with replacement characters it would be a
    /// name that does not exist (and two such names could look alike), so every operation on it would
    /// fail or reach the wrong file. The file stays in the folder untouched; nothing the store does
    /// removes or renames what it does not list. (``entryNames(_:)`` keeps every name as its bytes.)
    private static func directoryEntries(_ path: String) throws(StoreError) -> [(name: String, type: UInt8)] {
        var entries: [(name: String, type: UInt8)] = []
        let listed = forEachEntry(path) { name, type in
            if let text = String(validating: name, as: UTF8.self) { entries.append((text, type)) }
        }
        guard listed else { throw .system(file: path, operation: "opendir", errno: Errno(rawValue: errno)) }
        return entries
    }

    /// Runs a call of swift-system, whose functions are declared `throws` but only ever throw `Errno`.
    private static func systemCall<T>(_ body: () throws -> T) throws(Errno) -> T {
        do { return try body() } catch let error as Errno { throw error } catch { throw .ioError }
    }

    /// `open(2)` through swift-system (tried again when a signal interrupts it), always close-on-exec
    /// and non-blocking: no open in the store ever waits (SPEC 5b). Opening a FIFO for reading, or a
    /// device, without `O_NONBLOCK` waits for a writer or the device, in a thread the kernel cannot
    /// interrupt while the mount serves a request; with it the open returns at once, and the caller
    /// checks with `fstat` on the descriptor that it is a regular file before reading (on a regular file
    /// `O_NONBLOCK` changes nothing).
    static func openDescriptor(
        _ path: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [], permissions: mode_t? = nil
    ) throws(Errno) -> FileDescriptor {
        // The C-string form: no `FilePath` is parsed for a path that is only passed on.
        try systemCall {
            try path.withCString { path in
                try FileDescriptor.open(path, mode, options: options.union([.closeOnExec, .nonBlocking]),
                                        permissions: permissions.map { FilePermissions(rawValue: $0) })
            }
        }
    }

    /// Reads a whole regular file, refusing symbolic links and anything over `limit` bytes.
    package static func read(_ path: String, limit: Int = 1 << 30, followingSymbolicLinks: Bool = false) throws(StoreError) -> [UInt8] {
        try readWithIdentity(path, limit: limit, followingSymbolicLinks: followingSymbolicLinks).bytes
    }

    /// ``read(_:limit:followingSymbolicLinks:)``, with the identity of the file the bytes came from
    /// (taken from the open descriptor, so it names exactly that file even if the name is replaced).
    package static func readWithIdentity(_ path: String, limit: Int = 1 << 30, followingSymbolicLinks: Bool = false) throws(StoreError) -> (bytes: [UInt8], identity: Identity) {
        let descriptor: FileDescriptor
        do { descriptor = try openDescriptor(path, .readOnly, options: followingSymbolicLinks ? [] : .noFollow) } catch {
            // ENXIO: a Unix socket, or a device with no driver, at the name.
            if error == .noSuchAddressOrDevice { throw .unloadableDocument(file: path, reason: .notARegularFile) }
            throw .system(file: path, operation: "open", errno: error)
        }
        defer { try? descriptor.close() }
        let info: Stat
        do { info = try descriptor.stat() } catch { throw .system(file: path, operation: "fstat", errno: error) }
        // A FIFO, socket, device or folder at the name: never read (a FIFO's read would wait for a
        // writer); the caller reports it as a file that is not a document (SPEC 5a, 5b).
        guard info.type == .regular else { throw .unloadableDocument(file: path, reason: .notARegularFile) }
        guard info.size <= limit else { throw .system(file: path, operation: "read", errno: .fileTooLarge) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.size))
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count: Int
            do { count = try systemCall { try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) } } } catch {
                throw .system(file: path, operation: "read", errno: error)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= limit else { throw .system(file: path, operation: "read", errno: .fileTooLarge) }
        }
        return (bytes, Identity(info))
    }

    /// A new file beside `path` named by ``temporaryName(for:suffix:)`` with a random suffix, opened
    /// for writing (never an existing file, never through a link).
    private static func createTemporary(beside path: String, permissions: mode_t) throws(StoreError) -> (path: String, descriptor: FileDescriptor) {
        var random = SystemRandomNumberGenerator()
        let suffix = String(UInt64.random(in: 0...UInt64.max, using: &random), radix: 16)
        let temporary = parentPath(path) + "/" + temporaryName(for: lastComponent(path), suffix: suffix)
        do {
            return (temporary, try openDescriptor(temporary, .writeOnly, options: [.create, .exclusiveCreate, .noFollow], permissions: permissions))
        } catch {
            throw .system(file: path, operation: "create temporary file", errno: error)
        }
    }

    /// Writes a file atomically: a temporary file in the same folder, fsync, rename over the
    /// target, fsync of the folder. A reader (or a sync tool) sees the old file or the new one,
    /// never half of one.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(StoreError) {
        // A file that exists keeps its permissions.
        let mode = mode(ofExisting: path, fallback: permissions)
        let (temporary, descriptor) = try createTemporary(beside: path, permissions: permissions)
        var failure: StoreError?
        copyOwnership(from: path, to: descriptor.rawValue)
        if fchmod(descriptor.rawValue, mode) != 0 { failure = .system(file: path, operation: "fchmod", errno: Errno(rawValue: errno)) }
        failure = finishWriting(bytes, to: descriptor, path: path, failure: failure)
        if failure == nil && rename(temporary, path) != 0 { failure = .system(file: path, operation: "rename", errno: Errno(rawValue: errno)) }
        if let failure {
            // Our own temporary file, never renamed: nothing else can be in it.
            unlink(temporary)
            throw failure
        }
        try syncDirectory(parentPath(path))
    }

    /// Writes a file whose loss in a crash costs nothing (a cache entry): a temporary file in the same
    /// folder renamed over the target, so a reader sees the old file or the new one, but no fsync.
    package static func writeWithoutSync(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o600) throws(StoreError) {
        let (temporary, descriptor) = try createTemporary(beside: path, permissions: permissions)
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
        let (temporary, descriptor) = try createTemporary(beside: path, permissions: mode)
        var failure: StoreError?
        if fchmod(descriptor.rawValue, mode) != 0 { failure = .system(file: path, operation: "fchmod", errno: Errno(rawValue: errno)) }
        copyOwnership(from: ownerOf ?? path, to: descriptor.rawValue)
        var identity: Identity?
        if failure == nil {
            failure = finishWriting(bytes, to: descriptor, path: path, closing: false)
            if failure == nil {
                do { identity = Identity(try descriptor.stat()) } catch { failure = .system(file: path, operation: "fstat", errno: error) }
            }
        }
        do { try systemCall { try descriptor.close() } } catch where failure == nil { failure = .system(file: path, operation: "close", errno: error) } catch {}
        guard let identity, failure == nil else {
            // Our own temporary file, never renamed: nothing else can be in it.
            unlink(temporary)
            throw failure ?? .system(file: path, operation: "fstat", errno: .ioError)
        }
        return (temporary, identity)
    }

    /// The permission bits a replacement of `path` gets: those of the file there, else `fallback`.
    package static func mode(ofExisting path: String, fallback: mode_t = 0o644) -> mode_t {
        var existing = stat()
        return lstat(path, &existing) == 0 && existing.st_mode & S_IFMT == S_IFREG ? existing.st_mode & 0o7777 : fallback
    }

    /// Swaps the files at two paths in one step (`renameat2` with `RENAME_EXCHANGE`). Returns false,
    /// having changed nothing, where the file system cannot exchange (then rename with a re-check).
    /// `faults`: what a test makes this call see (nil outside tests).
    package static func exchange(_ first: String, _ second: String, faults: FaultInjection? = nil) throws(StoreError) -> Bool {
        if let faults {
            if faults.failure(for: .exchange, path: second) != nil { return false }
            faults.waitIfHeld(.exchange, path: second)
        }
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
        _ bytes: [UInt8], to descriptor: FileDescriptor, path: String, failure initial: StoreError? = nil, closing: Bool = true, syncing: Bool = true
    ) -> StoreError? {
        var failure = initial
        if failure == nil {
            do { _ = try systemCall { try descriptor.writeAll(bytes) } } catch { failure = .system(file: path, operation: "write", errno: error) }
        }
        if syncing && failure == nil && fsync(descriptor.rawValue) != 0 { failure = .system(file: path, operation: "fsync", errno: Errno(rawValue: errno)) }
        if closing {
            do { try systemCall { try descriptor.close() } } catch where failure == nil { failure = .system(file: path, operation: "close", errno: error) } catch {}
        }
        return failure
    }

    /// The name of ``writeAtomically(_:to:permissions:)``'s temporary file for `name`:
    /// `.NAME.minutafs-MACHINE-HEX.tmp` (see `TemporaryFileName`), hidden, never shown by the mount,
    /// and never longer than a folder entry may be.
    package static func temporaryName(for name: String, suffix: String) -> String {
        TemporaryFileName.make(for: name, random: suffix)
    }

    /// Whether `name` is one of ``writeAtomically(_:to:permissions:)``'s temporary files (left
    /// behind only when the process died between creating it and renaming it).
    package static func isTemporaryName(_ name: String) -> Bool {
        TemporaryFileName.parse(name) != nil
    }

    /// Makes a folder's entries durable (a rename or unlink in it survives a crash).
    /// - Throws: when the folder cannot be opened or `fsync` fails: the entry may not be on disk.
    /// `faults`: what a test makes this call see (nil outside tests).
    package static func syncDirectory(_ path: String, faults: FaultInjection? = nil) throws(StoreError) {
        let descriptor: FileDescriptor
        do { descriptor = try openDescriptor(path, .readOnly, options: .directory) } catch {
            throw .system(file: path, operation: "open folder for fsync", errno: error)
        }
        defer { try? descriptor.close() }
        if let faults {
            if let injected = faults.failure(for: .fsyncDirectory, path: path) {
                throw .system(file: path, operation: "fsync of the folder", errno: Errno(rawValue: injected))
            }
            if let milliseconds = faults.delay(for: .fsyncDirectory, path: path) { usleep(UInt32(milliseconds) * 1000) }
            faults.waitIfHeld(.fsyncDirectory, path: path)
        }
        guard fsync(descriptor.rawValue) == 0 else { throw .system(file: path, operation: "fsync of the folder", errno: Errno(rawValue: errno)) }
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
        // Every save of a document asks for its folder, which is almost always there: one `stat`, not one
        // per component of the path.
        if status(path)?.isDirectory == true { return }
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
    public static func read(_ file: FilePath) throws(StoreError) -> [UInt8] {
        try BackingFiles.read(file.string, followingSymbolicLinks: true)
    }

    /// Replaces a file atomically and durably (temporary file, fsync, rename, fsync of the folder),
    /// keeping its permissions; a symbolic link is written through to its target.
    public static func write(_ bytes: [UInt8], to file: FilePath) throws(StoreError) {
        let path = file.string
        var target = path
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        if let status = BackingFiles.status(path), status.isSymbolicLink, realpath(path, &buffer) != nil {
            target = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        try BackingFiles.writeAtomically(bytes, to: target)
    }
}

extension BackingFiles.Identity {
    package init(_ info: Stat) {
        self.init(device: UInt64(info.deviceID.rawValue), inode: UInt64(info.inode.rawValue), size: info.size,
                  modificationSeconds: Int(info.st_mtim.tv_sec), modificationNanoseconds: Int(info.st_mtim.tv_nsec))
    }
}
