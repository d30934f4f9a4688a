import Foundation
import Glibc
import MinutaStore
import SystemPackage

/// How one side of `minutafs sync` writes its store, which has a single writer (SPEC 5a): its mount
/// when it is mounted (what is received is delivered as conflict copies the mount merges, see
/// ``MountDelivery``), else this process under the store's lock.
final class SyncStoreAccess {
    /// The store folder (the mount's source when the path given was its mount point).
    let store: String
    /// Held while this process writes the store (nil when mounted).
    private let lock: StoreLock?
    /// The store's mount, which carries out what is received (nil when not mounted).
    let delivery: MountDelivery?
    /// What merging the waiting conflict copies before the sync did, for the report.
    private(set) var mergedBeforeSync: [String] = []

    private init(store: String, lock: StoreLock?, delivery: MountDelivery?) {
        self.store = store
        self.lock = lock
        self.delivery = delivery
    }

    /// The store at `path` (a store folder or a minutafs mount point): through its mount when it is
    /// mounted, else locked for writing.
    /// - Throws: `CommandFailure` for a path inside a mount (not its mount point), a folder that is
    ///   not a store, a store another process writes, or an unreadable mount table.
    static func open(_ path: String) throws(CommandFailure) -> SyncStoreAccess {
        let table: MountTable
        do { table = try MountTable.current() } catch {
            throw CommandFailure(path: path, cause: "cannot tell whether it is mounted: \(error.description)")
        }
        let absolute = MountTable.absolutePath(of: FilePath(path))
        if let mount = table.mount(containing: absolute), mount.isMinutafs {
            // The mount point itself stands for its store; anything inside it is refused with its name.
            guard absolute == mount.mountPoint else {
                try MountedPath.refuse(path)
                throw CommandFailure(path: path, cause: "is in a minutafs mount")
            }
            try StoreFolder.checkExistingStore(mount.source, creating: nil)
            return SyncStoreAccess(store: mount.source, lock: nil, delivery: MountDelivery(storePath: mount.source, mountPoint: mount.mountPoint.string))
        }
        if let mount = TimerPlace.mountShowing(path, in: table) {
            try StoreFolder.checkExistingStore(path, creating: nil)
            return SyncStoreAccess(store: path, lock: nil, delivery: MountDelivery(storePath: path, mountPoint: mount.mountPoint.string))
        }
        try StoreFolder.checkExistingStore(path, creating: nil)
        let lock = try StoreCommandSupport.lockForWriting(path, hint: "stop the other command and sync again")
        return SyncStoreAccess(store: path, lock: lock, delivery: nil)
    }

    /// Whether the folder `path` (a store, a link to one, or its minutafs mount point) is the store
    /// folder `store`: the same device and inode.
    static func isSameStore(_ path: String, as store: String) -> Bool {
        var folder = path
        if let table = try? MountTable.current(), let mount = table.mount(containing: MountTable.absolutePath(of: FilePath(path))),
           mount.isMinutafs, mount.mountPoint == MountTable.absolutePath(of: FilePath(path)) {
            folder = mount.source
        }
        var first = stat(), second = stat()
        guard stat(folder, &first) == 0, stat(store, &second) == 0 else { return MountDaemon.absolute(path) == MountDaemon.absolute(store) }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// Merges the conflict copies waiting in a store this process writes into their documents, as
    /// `minutafs merge` does (a mount merges its own), so the other side receives their changes and
    /// they are not left to merge later. A copy that cannot be merged is left as it is and named.
    func mergeWaitingCopies() throws(CommandFailure) {
        guard lock != nil, hasConflictCopies() else { return }
        let opened = try StoreCommandSupport.open(store, indexesRecordHolders: false)
        let reports: [MergeReport]
        do { reports = try opened.mergeConflictCopies() } catch {
            throw CommandFailure(path: store, cause: "cannot merge its waiting conflict copies: \(error.description)")
        }
        for report in reports {
            switch report.outcome {
            case .merged: mergedBeforeSync.append("before syncing, " + report.description)
            case .quarantined, .waiting: mergedBeforeSync.append(report.description)
            case .duplicateRemoved: break
            }
        }
    }

    /// Whether a document conflict copy lies beside the tags or in a year folder (a cheap look
    /// before opening the store to merge).
    private func hasConflictCopies() -> Bool {
        var folders = [store]
        for year in (try? BackingFiles.listDirectoryKinds(store + "/records")) ?? [] where year.isDirectory && StoreSyncSide.isYear(year.name) {
            folders.append(store + "/records/" + year.name)
        }
        return folders.contains { folder in
            ((try? BackingFiles.listDirectory(folder)) ?? []).contains { ConflictCopyName.match($0) != nil }
        }
    }

    /// Ends this side's writing: waits for its mount to merge what was delivered to it. Returns lines
    /// for the report (none when nothing was delivered).
    func finish() -> [String] {
        withExtendedLifetime(lock) {}
        guard let delivery, !delivery.delivered.isEmpty else { return [] }
        let waiting = delivery.waitUntilMerged()
        let count = delivery.delivered.count
        let copies = "\(count) conflict cop\(count == 1 ? "y" : "ies")"
        if waiting.isEmpty {
            return ["delivered to the mount at \(delivery.mountPoint) as \(copies), merged"]
        }
        return ["delivered to the mount at \(delivery.mountPoint) as \(copies); not merged yet: " + waiting.joined(separator: ", ")
                    + " (they are safe in the store; the mount merges them, see its .minutafs/errors)"]
    }
}
