import AutomergeKit
import SystemPackage

/// What went wrong in the store, with the file it concerns. `description` is one line for a
/// person: the CLI prints it, the mount logs it and adds it to `.minutafs/errors`.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A user wrote content the store refuses; nothing was changed.
    case rejected(file: String, line: Int?, column: Int?, reason: RecordInputError)
    case notFound(String)
    case alreadyExists(String)
    case notEmpty(String)
    case invalidName(String)
    /// The engine refused something done to a document held in memory (`operation`: what, in words).
    case documentOperationFailed(file: String, operation: String, cause: AutomergeError)
    /// A document file of the store that does not load (SPEC 5a): it is left exactly as it is, and
    /// what it holds cannot be changed until a readable version replaces it. Writes through the
    /// mount fail with `EROFS`, reads of what was never loaded with `EIO`.
    case unloadableDocument(file: String, reason: UnreadableReason)
    /// A system call failed with `errno`.
    case system(file: String, operation: String, errno: Errno)
    case notAStore(String)
    /// Another minutafs process writes this store now (SPEC 5a: one writer per store per machine).
    case storeInUse(store: String, holder: String)
    /// The mount holding this store was killed but cannot end (one of its threads waits in the kernel
    /// for an answer its own dead threads would have sent), so it keeps the store's lock; only aborting
    /// its FUSE connection (`connection`, a folder of `/sys/fs/fuse/connections`) frees it.
    case storeHeldByStuckMount(store: String, mountPoint: String, process: Int32, connection: String)
    case legacyStore(String)
    /// The backing folder is no longer the one the store was opened on: moved, deleted or replaced
    /// (SPEC 5b). Nothing is written, at its old path or anywhere.
    case backingFolderGone(String)

    public var description: String {
        switch self {
        case let .rejected(file, line, column, reason):
            if line != nil, column != nil, case .syntax = reason { return "\(file): \(reason)" }
            if let line, let column { return "\(file): line \(line), column \(column): \(reason)" }
            return "\(file): \(reason)"
        case .notFound(let path): return "\(path): no such file or folder"
        case .alreadyExists(let path): return "\(path): already exists"
        case .notEmpty(let path): return "\(path): folder is not empty"
        case .invalidName(let name): return "\(name): not a name this folder can hold"
        case let .documentOperationFailed(file, operation, cause): return "\(file): \(operation) failed: \(cause)"
        case let .unloadableDocument(file, reason): return "\(file): cannot be loaded: \(reason); it is left untouched and read-only until a readable version replaces it"
        case let .system(file, operation, errno): return "\(file): \(operation) failed: \(String(cString: strerror(errno.rawValue)))"
        case let .storeInUse(store, holder): return "\(store): the store is in use: \(holder); unmount it (or wait for that process) first"
        case let .storeHeldByStuckMount(store, mountPoint, process, connection):
            return "\(store): \(Self.stuckMountReason(mountPoint: mountPoint, process: process, connection: connection))"
        case .notAStore(let path): return "\(path): not a Minuta store (no tags.automerge and no records folder)"
        case .backingFolderGone(let path): return "\(path): the store folder was moved, deleted or replaced while mounted; nothing more is written to it (every write fails with EROFS). Unmount, then mount the store from where it is now"
        case .legacyStore(let path): return "\(path): this is a legacy JSON store; run `minutafs migrate \(path)` first"
        }
    }

    /// What ``storeHeldByStuckMount(store:mountPoint:process:connection:)`` says after the store's path.
    /// When the FUSE control file system is not mounted (no `connection` folder), it says to mount it first.
    public static func stuckMountReason(mountPoint: String, process: Int32, connection: String) -> String {
        let control = String(connection[..<(connection.lastIndex(of: "/") ?? connection.endIndex)])
        let mountControl = access(connection, F_OK) == 0 ? "" : "`mount -t fusectl none \(control)`, then "
        return "the store is held by a dead mount: process \(process), mounted at \(mountPoint), was killed but cannot end "
            + "while its FUSE connection \(connection) waits for an answer it will never get. Free it with "
            + "\(mountControl)`echo 1 > \(connection)/abort` (as root), then `fusermount3 -u \(mountPoint)`"
    }
}

#if canImport(Glibc)
import Glibc
#endif
