import FileTreeInterface
import SystemPackage

/// A file the mount keeps itself, in memory: an editor's swap, backup or temporary file, whose name the
/// tree does not accept (SPEC section 4). It lives until it is unlinked, renamed onto an accepted name,
/// or the mount ends.
struct ScratchFile {
    /// The bytes. Every change counts up `generation` (in place: the observer never reads the old value).
    var contents: [UInt8] = [] {
        didSet { generation &+= 1 }
    }
    /// Permission bits, as `create` or `chmod` gave them.
    var permissions: UInt32
    var modificationTime: TreeTime
    var accessTime: TreeTime
    /// Whether the file goes to the tree if it stays unrenamed a while after its last close
    /// (`FileTree.settles(fileNamed:inDirectory:)`).
    var settles = false
    /// The token of the latest scheduled settling; an older one finds it changed and does nothing.
    var settleToken: UInt64 = 0
    /// The error the tree gave when this file was last given to it after its last close (a full or
    /// read-only folder): the file stays here, and is tried again, until the tree takes it.
    var deferredFailure: Errno?
    /// Counts the changes of `contents`.
    var generation: UInt64 = 0
    /// The `generation` whose bytes the mount's journal holds for this path (see
    /// `FuseFileSystem+Journal.swift`), nil when it holds none of this file's.
    var journaledGeneration: UInt64?
}

/// The scratch files of one mount, by path.
struct ScratchFiles {
    /// Keyed byte for byte (`ExactPath`): two names Swift's `String` holds equal are two files.
    private var files: [ExactPath: ScratchFile] = [:]

    subscript(path: String) -> ScratchFile? {
        get { files[ExactPath(path)] }
        _modify { yield &files[ExactPath(path)] }
    }

    func contains(_ path: String) -> Bool {
        files[ExactPath(path)] != nil
    }

    /// The names of the scratch files directly in `directory`.
    func names(inDirectory directory: String) -> [String] {
        files.keys.filter { ExactPath(TreePath.parent(of: $0.path)) == ExactPath(directory) }.map { TreePath.name(of: $0.path) }.sorted()
    }

    /// The paths of the scratch files that settle into the tree.
    var settlingPaths: [String] {
        files.compactMap { $0.value.settles ? $0.key.path : nil }
    }

    /// Whether any scratch file lies below `directory` (which then cannot be removed).
    func hasFiles(within directory: String) -> Bool {
        files.keys.contains { $0 != ExactPath(directory) && TreePath.isWithin($0.path, directory: directory) }
    }

    @discardableResult
    mutating func remove(_ path: String) -> ScratchFile? {
        files.removeValue(forKey: ExactPath(path))
    }

    mutating func move(_ source: String, to destination: String) {
        guard ExactPath(source) != ExactPath(destination), let file = files.removeValue(forKey: ExactPath(source)) else { return }
        files[ExactPath(destination)] = file
    }

    mutating func exchange(_ first: String, _ second: String) {
        let firstFile = files[ExactPath(first)]
        files[ExactPath(first)] = files[ExactPath(second)]
        files[ExactPath(second)] = firstFile
    }
}

extension Array where Element == UInt8 {
    /// Writes `bytes` at `offset`, filling any gap past the end with zeros, as `pwrite` does. The
    /// storage grows by doubling, but to no more than `limit` bytes (the most the file may hold), so
    /// a file written up to its limit never holds twice that.
    mutating func write(_ bytes: [UInt8], at offset: Int, capacityLimit limit: Int) {
        let end = offset + bytes.count
        if end > capacity { reserveCapacity(Swift.min(limit, Swift.max(end, capacity * 2))) }
        write(bytes, at: offset)
    }

    /// Writes `bytes` at `offset`, filling any gap past the end with zeros, as `pwrite` does.
    mutating func write(_ bytes: [UInt8], at offset: Int) {
        if offset > count {
            append(contentsOf: repeatElement(0, count: offset - count))
        }
        let end = Swift.min(offset + bytes.count, count)
        replaceSubrange(offset..<end, with: bytes)
    }

    /// Cuts or extends (with zeros) to `size` bytes, as `ftruncate` does.
    mutating func resize(to size: Int) {
        if size < count {
            removeSubrange(size...)
        } else if size > count {
            append(contentsOf: repeatElement(0, count: size - count))
        }
    }

    /// At most `length` bytes from `offset`; empty past the end.
    func bytes(from offset: Int, length: Int) -> [UInt8] {
        guard offset < count, length > 0 else { return [] }
        return Array(self[offset..<Swift.min(count, offset + length)])
    }
}
