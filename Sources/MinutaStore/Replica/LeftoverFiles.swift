import AutomergeKit

/// The store's own temporary files left behind: `.NAME.minutafs-MACHINE-HEX.tmp` beside the file an
/// atomic write replaces (`TemporaryFileName`). A process killed between creating one and renaming it
/// leaves it behind; so does one killed between swapping a new document in and checking the file it
/// swapped out (which may hold another device's changes). The mount never shows them; a stale one of
/// a document is merged into its document before it is removed, never just deleted, and one that does
/// not load is quarantined.
struct LeftoverFiles: Sendable {
    let replicas: MonthReplicas
    let documentFiles: DocumentFiles
    let backingFolder: BackingFolder
    let events: StoreEvents

    /// Removes the store's leftover temporary files anywhere in the backing folder (symbolic links are
    /// not followed): at once those this machine wrote (the caller holds the store's lock, so no process
    /// here is writing one), and those of another machine (or of an earlier version, without a machine
    /// tag) once last modified more than `age` seconds ago (a write in progress renames its temporary
    /// file within seconds, so an old one belongs to no one). A leftover of a document is brought in by
    /// `inLane`, which runs the given work in that document's write lane. Returns the relative paths removed.
    func removeStale(olderThan age: Int, inLane: (_ document: String, _ work: () -> Bool) -> Bool) -> [String] {
        var removed: [String] = []
        var folders = [""]
        let cutoff = replicas.now() - age
        while let folder = folders.popLast() {
            let prefix = folder.isEmpty ? "" : folder + "/"
            // Only folders and names of temporary files are looked at closer: the images are never stat'ed.
            // A folder that cannot be listed is swept by the next mount; nothing in it is touched now.
            guard let entries = try? BackingFiles.listDirectoryKinds(folder.isEmpty ? replicas.path : replicas.absolute(folder)) else { continue }
            for (name, isDirectory) in entries {
                if isDirectory {
                    if name != ".minutafs-quarantine" { folders.append(prefix + name) }
                    continue
                }
                guard let temporary = TemporaryFileName.parse(name), let status = BackingFiles.status(replicas.absolute(prefix + name)),
                      status.isRegularFile, temporary.isOwnMachine || status.modificationSeconds < cutoff else { continue }
                if let primary = TemporaryFileName.document(ofFileNamed: name, in: folder) {
                    guard inLane(primary, { bringIn(prefix + name, primary: primary) }) else { continue }
                } else if (try? BackingFiles.remove(replicas.absolute(prefix + name))) == nil {
                    // Not removable now (permissions, I/O): left for the next mount to try; nothing is lost.
                    continue
                }
                removed.append(prefix + name)
            }
        }
        return removed
    }

    /// Merges a stale temporary document into its document (or, if that does not load, into a
    /// conflict copy beside it) and removes it. One that does not load is moved to
    /// `.minutafs-quarantine/`, never deleted. Returns whether it is gone from its place.
    func bringIn(_ relative: String, primary: String) -> Bool {
        switch documentFiles.readDocumentFile(relative) {
        case .absent:
            return true
        case .unreadable(let reason, _):
            // Not movable now: it stays where it is, untouched, for the next mount to try.
            guard let destination = try? backingFolder.quarantine(relative) else { return false }
            events.note("\(relative): a temporary file an earlier minutafs left does not load (\(reason)); moved it to \(destination)")
            return true
        case .loaded(let leftover, _, _):
            do throws(StoreError) {
                // DocumentFiles decides where it goes; the replicas hand over the held document.
                _ = try documentFiles.bringInLeftover(leftover, from: relative, into: primary) { bringIn throws(StoreError) in
                    if let month = Month(documentPath: primary) {
                        _ = try replicas.withCheckedOut(month, creatingEmpty: true, change: bringIn)
                    } else {
                        try replicas.withTagsDocument(change: bringIn)
                    }
                }
                try BackingFiles.remove(replicas.absolute(relative))
                return true
            } catch {
                events.note("\(relative): a temporary file an earlier minutafs left could not be merged (\(error)); left as it is")
                return false
            }
        }
    }
}
