import Glibc
import Logging
import MinutaFS
import MinutaStore
import Synchronization

/// The store served through the FUSE adapter: `StoreTree`'s paths with the store's errors turned
/// into the adapter's (EINVAL for refused content, ENOSPC, EROFS, ...), and changes the sync tool
/// delivers reported so the kernel's caches are dropped.
final class StoreFileTree: FileTree {
    let tree: StoreTree
    private let handler = Mutex<(@Sendable ([String]) -> Void)?>(nil)
    /// `mount --verbose` logs each synchronization that found something at `debug`.
    private let logger: Logger

    init(tree: StoreTree, logger: Logger = Logger(label: "minutafs")) {
        self.tree = tree
        self.logger = logger
    }

    /// The adapter's error for a store error; `writing`: the request would change something, so a
    /// document that does not load makes it fail with `EROFS` (reads of it fail with `EIO`).
    static func treeError(_ error: StoreError, writing: Bool = false) -> TreeError {
        switch error {
        case .unloadableDocument: return writing ? .readOnly : .io(error.description)
        case .rejected(_, _, _, .tooLarge): return .fileTooLarge
        case .rejected: return .invalidContent(error.description)
        case .notFound, .invalidName: return .notFound
        case .alreadyExists: return .alreadyExists
        case .notEmpty: return .notEmpty
        case .documentOperationFailed, .notAStore, .legacyStore, .storeInUse: return .io(error.description)
        case .system(_, _, let code):
            switch code {
            case ENOSPC, EDQUOT: return .noSpace
            case EROFS: return .readOnly
            case EACCES, EPERM: return .permissionDenied
            case ENOENT: return .notFound
            case EEXIST: return .alreadyExists
            case ENOTEMPTY: return .notEmpty
            case EXDEV: return .crossDevice
            case EISDIR: return .isDirectory
            case ENOTDIR: return .notDirectory
            default: return .io(error.description)
            }
        }
    }

    private func mapped<T>(writing: Bool = false, _ body: () throws(StoreError) -> T) throws(TreeError) -> T {
        do { return try body() } catch { throw Self.treeError(error, writing: writing) }
    }

    func entries(inDirectory path: String) throws(TreeError) -> [TreeEntry] {
        try mapped { () throws(StoreError) in try tree.entries(inDirectory: path).map { TreeEntry(name: $0.name, isDirectory: $0.isDirectory) } }
    }

    func attributes(ofPath path: String) throws(TreeError) -> TreeAttributes {
        try mapped { () throws(StoreError) in Self.treeAttributes(try tree.attributes(ofPath: path)) }
    }

    private static func treeAttributes(_ attributes: StoreTree.Attributes) -> TreeAttributes {
        TreeAttributes(isDirectory: attributes.isDirectory, size: attributes.size,
                       modificationTime: TreeTime(seconds: Int64(attributes.modificationSeconds), nanoseconds: Int32(attributes.modificationNanoseconds)),
                       isWritable: attributes.isWritable,
                       changesWithoutNotice: !attributes.isWritable && !attributes.changesOnlyWithNotice)
    }

    func attributes(ofEntries names: [String], inDirectory path: String) -> [TreeAttributes?] {
        tree.attributes(ofEntries: names, inDirectory: path).map { attributes in
            attributes.map(Self.treeAttributes)
        }
    }

    func contents(ofPath path: String) throws(TreeError) -> [UInt8] {
        try mapped { () throws(StoreError) in try tree.contents(ofPath: path) }
    }

    func accepts(fileNamed name: String, inDirectory path: String) -> Bool {
        tree.accepts(fileNamed: name, inDirectory: path)
    }

    func settles(fileNamed name: String, inDirectory path: String) -> Bool {
        tree.settles(fileNamed: name, inDirectory: path)
    }

    func maximumFileSize(atPath path: String) -> Int {
        tree.maximumFileSize(atPath: path)
    }

    func didRefuseOversizedWrite(toPath path: String) {
        tree.recordOversizedWrite(toPath: path)
    }

    func write(_ contents: [UInt8], toPath path: String) throws(TreeError) {
        let changed = try mapped(writing: true) { () throws(StoreError) in try tree.write(contents, toPath: path) }
        report(changed.filter { $0 != path })
    }

    func removeFile(atPath path: String) throws(TreeError) {
        try mapped(writing: true) { () throws(StoreError) in try tree.removeFile(atPath: path) }
    }

    func renameFile(from source: String, to destination: String) throws(TreeError) {
        try mapped(writing: true) { () throws(StoreError) in try tree.renameFile(from: source, to: destination) }
    }

    func makeDirectory(atPath path: String) throws(TreeError) {
        try mapped(writing: true) { () throws(StoreError) in try tree.makeDirectory(atPath: path) }
    }

    func removeDirectory(atPath path: String) throws(TreeError) {
        try mapped(writing: true) { () throws(StoreError) in try tree.removeDirectory(atPath: path) }
    }

    func extendedAttributes(ofPath path: String) -> [String: [UInt8]] {
        tree.extendedAttributes(ofPath: path)
    }

    func extendedAttribute(named name: String, ofPath path: String) -> [UInt8]? {
        StoreTree.extendedAttributeNames.contains(name) ? tree.extendedAttributes(ofPath: path)[name] : nil
    }

    func setChangeHandler(_ handler: @escaping @Sendable ([String]) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    /// Tells the adapter which paths changed underneath it.
    func report(_ paths: [String]) {
        guard !paths.isEmpty, let handler = handler.withLock({ $0 }) else { return }
        handler(paths)
    }

    /// Merges what the sync tool delivered (conflict copies, replaced documents) and reports the
    /// paths whose contents or listings changed: the month folders and every record file in them.
    func synchronize() {
        synchronizeFolderChanges()
        let store = tree.store
        var documents: [String] = []
        do {
            documents = try store.synchronizeDocuments()
            if !documents.isEmpty { logger.debug("merged documents the sync tool replaced", metadata: ["documents": "\(documents)"]) }
        } catch {
            logger.debug("merging replaced documents failed", metadata: ["error": "\(error)"])
            store.noteSynchronizationFailure(error)
        }
        var mergeFailure: String?
        do {
            for report in try store.mergeConflictCopies() {
                logger.debug("conflict copy", metadata: ["copy": "\(report.copy)", "into": "\(report.primary)", "outcome": "\(report.outcome)"])
                switch report.outcome {
                case .merged, .duplicateRemoved: documents.append(report.primary)
                // Left as it is (its document does not load, the disk is full): merged on a later pass.
                case .waiting: mergeFailure = mergeFailure ?? report.description
                case .quarantined: break
                }
            }
        } catch {
            logger.debug("merging conflict copies failed; they stay as they are", metadata: ["error": "\(error)"])
            mergeFailure = error.description
        }
        store.recordSynchronizationPass(mergeFailure: mergeFailure)
        guard !documents.isEmpty else { return }
        // Another device's edits to records this mount moved away, merged just now into their old month.
        if let carried = try? store.carryEditsToMovedRecords() { documents += carried.map { $0 + ".automerge" } }
        reportChanged(documents: documents)
    }

    /// Starts the store tree's background work; what it changes is reported like a synchronization's.
    func startBackgroundWork() {
        tree.startBackgroundWork { [self] documents in reportChanged(documents: documents) }
    }

    /// Reports the paths whose contents or listings change with these documents (relative paths).
    private func reportChanged(documents: [String]) {
        let store = tree.store
        var paths: [String] = []
        for document in Set(documents) {
            if document == "tags.automerge" {
                // Every report names and colors tags.
                paths.append("/tags.json")
                paths += tree.reportPaths(showing: (try? store.months()) ?? [])
                continue
            }
            let folder = "/" + String(document.dropLast(".automerge".count))
            paths.append(folder)
            let parts = folder.split(separator: "/")
            if parts.count == 3, let month = Month(yearName: String(parts[1]), monthName: String(parts[2])) {
                // A month that cannot be listed now has no cached record files to drop.
                for file in (try? store.recordFiles(in: month)) ?? [] { paths.append(folder + "/" + file.name) }
                paths += tree.reportPaths(showing: [month])
            }
        }
        report(paths)
    }

    /// What `synchronize` looks at before merging: identical image conflict copies are deleted, and
    /// month documents deleted from the folder (or back) are noticed; their paths are reported.
    private func synchronizeFolderChanges() {
        let store = tree.store
        var paths: [String] = []
        for duplicate in (try? store.removeIdenticalImageCopies()) ?? [] { paths.append("/" + duplicate.copy) }
        for month in store.noticeDeletedDocuments() {
            paths.append("/" + month.folderPath)
            paths += tree.reportPaths(showing: [month])
            for file in (try? store.recordFiles(in: month)) ?? [] { paths.append("/" + month.folderPath + "/" + file.name) }
        }
        if !paths.isEmpty { report(paths) }
    }
}
