import MinutaStore
import SystemPackage

/// A path the user gave that lies in a minutafs mount (SPEC 5b): a mount looks like a legacy JSON
/// store, so no command may take it for a store, read its files as documents or write through it.
/// Decided from the kernel's mount table, never from what the folder holds.
enum MountedPath {
    /// What the user should give instead of the mount: the store folder, one of its documents, or a
    /// folder outside the mount (for a command that makes a store).
    enum Instead {
        case store, document, folderOutside
    }

    /// Stops the command when `path` is a minutafs mount or is inside one, naming the store it
    /// mounts: "m is a minutafs mount of /home/me/Dropbox/Minuta; give /home/me/Dropbox/Minuta".
    /// - Throws: `CommandFailure` (exit 1) for a path in a minutafs mount, or when the mount table
    ///   cannot be read.
    static func refuse(_ path: String, instead: Instead = .store) throws(CommandFailure) {
        let absolute = MountTable.absolutePath(of: FilePath(path))
        guard let mount = try table(for: path).mount(containing: absolute), mount.isMinutafs else { return }
        let store = mount.source
        let give = switch instead {
        case .store: "give \(store)"
        case .document: "give a document of \(store) (tags.automerge or records/YYYY/MM.automerge)"
        case .folderOutside: "a store is written to a folder outside any minutafs mount"
        }
        let place = absolute == mount.mountPoint ? "is a minutafs mount of \(store)" : "is in \(mount.mountPoint.string), a minutafs mount of \(store)"
        throw CommandFailure(path: path, cause: "\(place); \(give)", separator: " ")
    }

    /// Stops `migrate` when `path` is in any FUSE filesystem (SPEC 5b): what is written there is
    /// what a program makes of it, not a file on a disk, so the documents it verifies against may
    /// not be the ones it wrote. `refuse(_:)` has already named a minutafs mount's store.
    /// - Throws: `CommandFailure` (exit 1) for a path in a FUSE mount.
    static func refuseFUSE(_ path: String, option: String) throws(CommandFailure) {
        let absolute = MountTable.absolutePath(of: FilePath(path))
        guard let mount = try table(for: path).mount(containing: absolute), mount.isFUSE else { return }
        throw CommandFailure(
            path: path,
            cause: "is in a FUSE filesystem (\(mount.fileSystemType) \(mount.source) mounted at \(mount.mountPoint.string)); migrate writes only into folders outside FUSE mounts. Give \(option) to migrate there anyway",
            separator: " ")
    }

    private static func table(for path: String) throws(CommandFailure) -> MountTable {
        do { return try MountTable.current() } catch {
            throw CommandFailure(path: path, cause: "cannot tell whether it is a minutafs mount: \(error.description)")
        }
    }
}
