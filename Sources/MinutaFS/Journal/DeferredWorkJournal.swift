import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Work the mount told a program was done and has not yet done to the tree, kept as files in a folder
/// outside the tree (the mount's state folder, never the synced folder), so that a killed or unmounted
/// mount loses none of it: the next mount of the same store carries it out (SPEC 5b).
///
/// One file per path and kind of work, `SEQUENCE.entry` (the layout is `JournalEntry`'s), written as
/// `SEQUENCE.tmp` and renamed, so a reader finds a whole entry or none; a newer version for the same
/// path is written before the older file goes. Entries are not fsynced unless asked (`durably`,
/// `makeDurable()`): they are there to outlive the mount's process, as a closed file outlives the
/// program that wrote it; `fsync` of the file or of its folder asks for more.
///
/// Every method may be called from any thread. The journal's lock is a leaf: it is held around the
/// journal's own file operations and nothing else.
public final class DeferredWorkJournal: Sendable {
    /// The folder the entries are kept in.
    public let folder: String
    /// What an earlier mount left, oldest first, as found when the journal was opened.
    public let recovered: [JournalEntry]
    /// Files in the folder that are not whole entries, each with why. They are kept as they are.
    public let damaged: [DamagedJournalFile]

    private struct Key: Hashable {
        let path: String
        let isRemoval: Bool
    }

    private struct Recorded {
        let fileName: String
        let summary: String
    }

    private struct State {
        var recorded: [Key: Recorded] = [:]
        var nextSequence: UInt64 = 1
        var folderExists = false
    }

    private let state: Mutex<State>

    /// Opens the journal in `folder` and reads what an earlier mount left. Half-written entries (a
    /// process killed while writing one) are removed. The folder (mode 0700) is made when the first
    /// entry is written.
    ///
    /// - Throws: the reason the folder cannot be listed.
    public init(folder: String) throws(JournalError) {
        self.folder = folder
        let found = try Self.scan(folder)
        var state = State()
        state.folderExists = found.folderExists
        var recovered: [JournalEntry] = []
        for file in found.entries {
            let key = Key(path: file.entry.path, isRemoval: file.entry.work == .removal)
            if let older = state.recorded[key] {
                // A newer version was written and the process ended before the older file went.
                unlink(folder + "/" + older.fileName)
                recovered.removeAll { Key(path: $0.path, isRemoval: $0.work == .removal) == key }
            }
                state.recorded[key] = Recorded(fileName: file.name, summary: file.entry.summary)
            recovered.append(file.entry)
        }
        for name in found.halfWritten { unlink(folder + "/" + name) }
        state.nextSequence = found.largestSequence + 1
        self.recovered = recovered
        self.damaged = found.damaged
        self.state = Mutex(state)
    }

    /// What is in `folder`, without changing anything: for `minutafs check`, with no mount running.
    public static func inspect(folder: String) throws(JournalError) -> (entries: [JournalEntry], damaged: [DamagedJournalFile]) {
        let found = try scan(folder)
        var latest: [Key: JournalEntry] = [:]
        var order: [Key] = []
        for file in found.entries {
            let key = Key(path: file.entry.path, isRemoval: file.entry.work == .removal)
            if latest[key] == nil { order.append(key) }
            latest[key] = file.entry
        }
        return (order.compactMap { latest[$0] }, found.damaged)
    }

    /// Keeps `entry`, replacing what was kept for the same path and kind of work, if `isCurrent()` says
    /// the entry still stands for the caller's state. `isCurrent` runs under the journal's lock, so a
    /// caller that takes the bytes under its own lock and changes its state before it calls ``forget``
    /// never has an older version written over a newer one, nor an entry written after its work was done.
    /// `durably` fsyncs the entry and the folder before it returns.
    ///
    /// - Throws: the `Errno` of the write that failed (a full or read-only state folder); what was kept
    ///   before for the path stays.
    public func record(_ entry: JournalEntry, durably: Bool = false, when isCurrent: () -> Bool = { true }) throws(Errno) {
        let key = Key(path: entry.path, isRemoval: entry.work == .removal)
        try state.withLock { state throws(Errno) in
            guard isCurrent() else { return }
            if !state.folderExists {
                do throws(JournalError) { try Self.makeFolder(folder) } catch {
                    if case .folder(_, _, let errno) = error { throw errno }
                    throw .ioError
                }
                state.folderExists = true
            }
            let name = Self.fileName(sequence: state.nextSequence)
            state.nextSequence += 1
            try Self.write(entry.encoded(), named: name, in: folder, durably: durably)
            if let older = state.recorded[key] { unlink(folder + "/" + older.fileName) }
            state.recorded[key] = Recorded(fileName: name, summary: entry.summary)
        }
    }

    /// The work kept for `path` is done, or no longer wanted: its entry goes, if `isCurrent()` (run under
    /// the journal's lock) says so.
    public func forget(path: String, isRemoval: Bool, when isCurrent: () -> Bool = { true }) {
        let key = Key(path: path, isRemoval: isRemoval)
        state.withLock { state in
            guard let recorded = state.recorded[key], isCurrent() else { return }
            unlink(folder + "/" + recorded.fileName)
            state.recorded[key] = nil
        }
    }

    /// Whether work for `path` is kept.
    public func holds(path: String, isRemoval: Bool) -> Bool {
        state.withLock { $0.recorded[Key(path: path, isRemoval: isRemoval)] != nil }
    }

    /// Every kept entry and the folder made durable, as an `fsync` of a folder promises.
    /// - Throws: the `Errno` of the first fsync that failed.
    public func makeDurable() throws(Errno) {
        try state.withLock { state throws(Errno) in
            guard state.folderExists else { return }
            for recorded in state.recorded.values {
                try Self.sync(folder + "/" + recorded.fileName, directory: false)
            }
            try Self.sync(folder, directory: true)
        }
    }

    /// One line per kept entry, for status and errors.
    public var waiting: [String] {
        state.withLock { state in state.recorded.values.sorted { $0.fileName < $1.fileName }.map(\.summary) }
    }

    // MARK: Files

    private static func fileName(sequence: UInt64) -> String {
        let hex = String(sequence, radix: 16)
        return String(repeating: "0", count: max(0, 16 - hex.count)) + hex + ".entry"
    }

    private static func makeFolder(_ folder: String) throws(JournalError) {
        var current = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw .folder(current, operation: "mkdir", errno: Errno(rawValue: errno))
            }
        }
    }

    private struct Scan {
        var folderExists = true
        var entries: [(name: String, entry: JournalEntry)] = []
        var halfWritten: [String] = []
        var damaged: [DamagedJournalFile] = []
        var largestSequence: UInt64 = 0
    }

    /// The folder's entries in the order they were written.
    private static func scan(_ folder: String) throws(JournalError) -> Scan {
        guard let directory = opendir(folder) else {
            if errno == ENOENT { return Scan(folderExists: false) }
            throw .folder(folder, operation: "opendir", errno: Errno(rawValue: errno))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let item = readdir(directory) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        var scan = Scan()
        for name in names.sorted() {
            let stem = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
            if let sequence = UInt64(stem, radix: 16) { scan.largestSequence = max(scan.largestSequence, sequence) }
            if name.hasSuffix(".tmp") {
                scan.halfWritten.append(name)
                continue
            }
            guard name.hasSuffix(".entry") else { continue }
            do throws(JournalError) {
                let bytes = try read(folder + "/" + name)
                do throws(JournalEntryDamage) {
                    scan.entries.append((name, try JournalEntry(decoding: bytes)))
                } catch {
                    scan.damaged.append(DamagedJournalFile(path: folder + "/" + name, reason: error.description))
                }
            } catch {
                scan.damaged.append(DamagedJournalFile(path: folder + "/" + name, reason: error.description))
            }
        }
        return scan
    }

    private static func read(_ path: String) throws(JournalError) -> [UInt8] {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(
                FilePath(path), .readOnly, options: [.closeOnExec, .noFollow, .nonBlocking], retryOnInterrupt: true)
        } catch {
            throw .file(path, operation: "open", errno: error as? Errno ?? .ioError)
        }
        defer { try? descriptor.close() }
        var status = stat()
        guard fstat(descriptor.rawValue, &status) == 0 else { throw .file(path, operation: "fstat", errno: Errno(rawValue: errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .file(path, operation: "read", errno: .invalidArgument) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try descriptor.read(into: $0, retryOnInterrupt: true) }
            } catch {
                throw .file(path, operation: "read", errno: error as? Errno ?? .ioError)
            }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
        }
    }

    private static func write(_ bytes: [UInt8], named name: String, in folder: String, durably: Bool) throws(Errno) {
        let temporary = folder + "/" + name.replacing(".entry", with: ".tmp")
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(
                FilePath(temporary), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec], permissions: [.ownerReadWrite],
                retryOnInterrupt: true)
        } catch {
            throw error as? Errno ?? .ioError
        }
        var failure: Errno?
        do { _ = try descriptor.writeAll(bytes) } catch { failure = error as? Errno ?? .ioError }
        if failure == nil && durably && fsync(descriptor.rawValue) != 0 { failure = Errno(rawValue: errno) }
        do { try descriptor.close() } catch where failure == nil { failure = error as? Errno ?? .ioError } catch {}
        if failure == nil && rename(temporary, folder + "/" + name) != 0 { failure = Errno(rawValue: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        if durably { try sync(folder, directory: true) }
    }

    private static func sync(_ path: String, directory: Bool) throws(Errno) {
        let descriptor = open(path, (directory ? O_DIRECTORY : 0) | O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Errno(rawValue: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Errno(rawValue: errno) }
    }
}

/// A file in the journal's folder that is not a whole entry, and why.
public struct DamagedJournalFile: Sendable, Equatable {
    public let path: String
    public let reason: String
}

/// Why the journal's folder could not be used.
public enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    case folder(String, operation: String, errno: Errno)
    case file(String, operation: String, errno: Errno)

    public var description: String {
        switch self {
        case .folder(let path, let operation, let errno): "the journal folder \(path): \(operation) failed: \(errno)"
        case .file(let path, let operation, let errno): "the journal file \(path): \(operation) failed: \(errno)"
        }
    }
}
