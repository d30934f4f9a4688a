import FileTreeInterface

/// The inode numbers the kernel has been given, and the path each one stands for.
///
/// A path keeps its number as long as the kernel holds it (`ls -i` and `find` see stable numbers while
/// the kernel caches the file). Once the kernel forgets it, the node is dropped, so the table holds no
/// more nodes than the kernel does however many files were looked at (the history folder has a snapshot
/// of every record at every instant), but the path's number is remembered (the newest
/// `rememberedNumbers` of them, a few hundred kilobytes): a later lookup of the same path gets the same number. The kernel forgets
/// an inode between two steps of one program whenever a cache notice makes it look a name up again (a
/// `stat`, then an `open`: `cp` and `tar` compare the two numbers and call a changed one a replaced
/// file). A number is never given to another path. A number whose path went away (unlinked, renamed
/// over) is *detached*: it stays until the kernel forgets it, and then it is dropped.
struct InodeTable {
    static let rootInode: UInt64 = 1

    struct Node {
        /// Nil once the file was unlinked or another file was renamed over it.
        var path: String?
        /// How many times the kernel was told of this inode (lookup, create, readdirplus) minus what it forgot.
        var lookupCount: UInt64
        /// The contents the kernel's page cache holds for this inode, when known: lets `open` keep the cache.
        var cachedContent: ContentStamp?
        /// The tree's attributes as the last `lookup`, `getattr` or `readdirplus` read them, and the
        /// `attributeGeneration` they were read in: lets a read-only `open` answer without the tree.
        var treeAttributes: (attributes: TreeAttributes, generation: UInt64)?
        /// Set while a rename replaces this inode's file, and after: what it answers instead of the tree.
        var retainedVersion: RetainedVersion?
    }

    private var nodes: [UInt64: Node] = [rootInode: Node(path: TreePath.root, lookupCount: 1)]
    /// Keyed byte for byte (`ExactPath`): two names Swift's `String` holds equal are two files.
    private var inodesByPath: [ExactPath: UInt64] = [ExactPath(TreePath.root): rootInode]
    private var nextInode: UInt64 = rootInode + 1
    /// Numbers of paths the kernel forgot, by path, to give back at the path's next lookup; the oldest
    /// go first once there are `rememberedNumbers` (`forgottenOrder` is the order they came in).
    private var forgottenNumbers: [ExactPath: UInt64] = [:]
    private var forgottenOrder: [ExactPath] = []
    private var forgottenOrderStart = 0
    static let rememberedNumbers = 4096
    /// Counts the moments at which every remembered tree attribute became unusable (see `treeAttributes`).
    private(set) var attributeGeneration: UInt64 = 0
    /// Counts the moments at which a path came to stand for another inode, or for none (detach, move,
    /// exchange): a lookup that read attributes across one asks again.
    private(set) var pathGeneration: UInt64 = 0

    func path(ofInode inode: UInt64) -> String? {
        nodes[inode]?.path
    }

    func inode(atPath path: String) -> UInt64? {
        inodesByPath[ExactPath(path)]
    }

    /// The number of `path`, given a new one if it has none; the kernel's lookup count is unchanged.
    mutating func inode(forPath path: String) -> UInt64 {
        let key = ExactPath(path)
        if let inode = inodesByPath[key] { return inode }
        let inode: UInt64
        if let remembered = forgottenNumbers.removeValue(forKey: key) {
            inode = remembered
        } else {
            inode = nextInode
            nextInode += 1
        }
        nodes[inode] = Node(path: path, lookupCount: 0)
        inodesByPath[key] = inode
        return inode
    }

    /// The number of `path`, counted as one more the kernel holds (a lookup or create reply).
    mutating func lookUp(_ path: String) -> UInt64 {
        let inode = inode(forPath: path)
        nodes[inode]?.lookupCount += 1
        return inode
    }

    /// Counts `count` more references the kernel holds (entries of a readdirplus reply).
    mutating func addLookups(_ count: UInt64, toInode inode: UInt64) {
        nodes[inode]?.lookupCount += count
    }

    /// The kernel dropped `count` references; an inode nobody references any more is dropped, with its path.
    mutating func forget(_ count: UInt64, ofInode inode: UInt64) {
        guard inode != Self.rootInode, var node = nodes[inode] else { return }
        node.lookupCount -= min(count, node.lookupCount)
        if node.lookupCount == 0 {
            nodes[inode] = nil
            if let path = node.path.map(ExactPath.init), inodesByPath[path] == inode {
                inodesByPath[path] = nil
                rememberForgotten(inode, ofPath: path)
            }
        } else {
            nodes[inode] = node
        }
    }

    /// Keeps the number of a path the kernel forgot, dropping the oldest beyond `rememberedNumbers`.
    private mutating func rememberForgotten(_ inode: UInt64, ofPath path: ExactPath) {
        forgottenNumbers[path] = inode
        forgottenOrder.append(path)
        while forgottenNumbers.count > Self.rememberedNumbers, forgottenOrderStart < forgottenOrder.count {
            let oldest = forgottenOrder[forgottenOrderStart]
            forgottenOrderStart += 1
            // A path forgotten again since also stands later in the order: dropped a little early then.
            forgottenNumbers[oldest] = nil
        }
        if forgottenOrderStart > Self.rememberedNumbers {
            // Entries of paths looked up again (or forgotten twice) leave stale places in the order.
            forgottenOrder = forgottenOrder[forgottenOrderStart...].filter { forgottenNumbers[$0] != nil }
            forgottenOrderStart = 0
        }
    }

    /// `path` (and everything below it) no longer exists: its inodes are detached.
    mutating func detach(_ path: String) {
        forgetTreeAttributes()
        pathGeneration += 1
        forgottenNumbers[ExactPath(path)] = nil  // a file made there later is another file
        for (existingPath, inode) in inodesByPath where TreePath.isWithin(existingPath.path, directory: path) {
            inodesByPath[existingPath] = nil
            if let node = nodes[inode], node.lookupCount == 0 {
                nodes[inode] = nil
            } else {
                nodes[inode]?.path = nil
            }
        }
    }

    /// A rename: the inode of `source` (and those below it) now stand for `destination`; whatever was at
    /// `destination` is detached. The source path is left without a number.
    mutating func move(_ source: String, to destination: String) {
        guard ExactPath(source) != ExactPath(destination) else { return }
        forgetTreeAttributes()
        pathGeneration += 1
        detach(destination)
        let moved = inodesByPath.filter { TreePath.isWithin($0.key.path, directory: source) }
        for (oldKey, inode) in moved {
            let oldPath = oldKey.path
            let newPath = destination + oldPath[oldPath.utf8.index(oldPath.startIndex, offsetBy: source.utf8.count)...]
            inodesByPath[oldKey] = nil
            inodesByPath[ExactPath(newPath)] = inode
            nodes[inode]?.path = newPath
        }
    }

    /// `RENAME_EXCHANGE` of two files: each inode takes the other's path.
    mutating func exchange(_ first: String, _ second: String) {
        forgetTreeAttributes()
        pathGeneration += 1
        let firstInode = inodesByPath[ExactPath(first)]
        let secondInode = inodesByPath[ExactPath(second)]
        inodesByPath[ExactPath(first)] = secondInode
        inodesByPath[ExactPath(second)] = firstInode
        if let firstInode { nodes[firstInode]?.path = second }
        if let secondInode { nodes[secondInode]?.path = first }
    }

    /// Whether the kernel holds a reference to `inode` (it may open, stat or read it).
    func isReferenced(_ inode: UInt64) -> Bool {
        (nodes[inode]?.lookupCount ?? 0) > 0
    }

    func retainedVersion(ofInode inode: UInt64) -> RetainedVersion? {
        nodes[inode]?.retainedVersion
    }

    /// Makes `inode` answer with `version` instead of the tree (nil: with the tree again).
    mutating func retain(_ version: RetainedVersion?, ofInode inode: UInt64) {
        nodes[inode]?.retainedVersion = version
    }

    func cachedContent(ofInode inode: UInt64) -> ContentStamp? {
        nodes[inode]?.cachedContent
    }

    mutating func setCachedContent(_ stamp: ContentStamp?, ofInode inode: UInt64) {
        nodes[inode]?.cachedContent = stamp
    }

    /// The tree's attributes of `inode`, if read since the last `forgetTreeAttributes()` and not forgotten
    /// for this inode since.
    func treeAttributes(ofInode inode: UInt64) -> TreeAttributes? {
        guard let remembered = nodes[inode]?.treeAttributes, remembered.generation == attributeGeneration else { return nil }
        return remembered.attributes
    }

    /// Remembers the tree's attributes of `inode`, read from the tree when `attributeGeneration` was
    /// `generation` (read before asking the tree: attributes read across a `forgetTreeAttributes()` are
    /// dropped).
    mutating func remember(_ attributes: TreeAttributes, ofInode inode: UInt64, generation: UInt64) {
        guard generation == attributeGeneration else { return }
        nodes[inode]?.treeAttributes = (attributes, generation)
    }

    /// The tree's attributes of `inode` may have changed.
    mutating func forgetTreeAttributes(ofInode inode: UInt64) {
        nodes[inode]?.treeAttributes = nil
    }

    /// Any of the tree's attributes may have changed (the tree reported a change, or a path moved).
    mutating func forgetTreeAttributes() {
        attributeGeneration += 1
    }

    /// How many inodes the table holds (for tests).
    var count: Int { nodes.count }
}

/// What identifies a version of a file's contents well enough to keep the kernel's page cache across opens.
struct ContentStamp: Equatable {
    var size: Int
    var modificationTime: TreeTime
}
