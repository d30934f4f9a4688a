import Dispatch
import FileTreeInterface

/// A file created and closed with nothing written, at a name the tree does not save empty (a record:
/// `touch new.json`, `: > new.json`).
///
/// It cannot be saved: an empty record is no record. But it cannot go at its close either. The kernel
/// still holds the name (a positive entry) and sends `RELEASE` after `close` has returned, so the next
/// command (`touch x.json; jq … > x.json`, or an editor opening the touched file) opens that name as the
/// inode the mount just dropped, which fails with `ENOENT`. So the handle stays in the table after its
/// release (`OpenFile.isKeptAfterClose`): it is the empty, unsaved file that `stat`, `ls` and `open` find,
/// as an open creating handle is. The next `open` of the inode takes it over (the new handle is the
/// unsaved file from then on), a save through any handle makes it the tree's file, `unlink` drops it,
/// and `emptyFileLifetime` seconds after its close it is forgotten, and the log says so.
///
/// Nothing is lost: the file holds no byte. Nothing of it is journaled, so it does not outlive the mount.
extension FuseFileSystem {
    /// `release` of a handle that created a file and holds it empty, at a name the tree does not save
    /// empty: kept instead of saved (which the tree would refuse), or closed unsaved when the tree has a
    /// file under that name by now. True when it was either, and there is nothing left to save.
    func keepEmptyUnsavedFile(handle: UInt64) -> Bool {
        guard let path = state.withLock({ state -> String? in
            guard let file = state.handles[file: handle], Self.isEmptyUnsaved(file) else { return nil }
            return state.inodes.path(ofInode: file.inode)
        }), !tree.savesEmptyFile(atPath: path) else { return false }
        if (try? tree.attributes(ofPath: path)) != nil {
            // The tree got a file under this name while it was open (a record filed there by its start, a
            // delivery): that file shows, and this empty one, never saved, goes without a save.
            let dropped = state.withLock { state -> UInt64? in
                guard let file = state.handles[file: handle], Self.isEmptyUnsaved(file) else { return nil }
                state.handles.close(file: handle)
                return file.inode
            }
            if let dropped { invalidator.invalidate(inode: dropped) }
            return dropped != nil
        }
        let kept = state.withLock { state -> Bool in
            guard let file = state.handles[file: handle], Self.isEmptyUnsaved(file),
                  let now = state.inodes.path(ofInode: file.inode), ExactPath(now) == ExactPath(path) else { return false }
            state.handles[file: handle]?.isKeptAfterClose = true
            state.handles[file: handle]?.isDirty = false  // nothing to save: not pending work
            return true
        }
        guard kept else { return false }
        DispatchQueue.global().asyncAfter(deadline: .now() + emptyFileLifetime) { [weak self] in
            self?.forgetKeptEmptyFile(handle: handle)
        }
        return true
    }

    private static func isEmptyUnsaved(_ file: OpenFile) -> Bool {
        file.isUnsaved && !file.isKeptAfterClose && file.contents?.isEmpty == true && !file.isOversized && file.refusal == nil
    }

    /// `emptyFileLifetime` after its close, a kept empty file nothing opened since goes: from the mount's
    /// names, and from the kernel's.
    private func forgetKeptEmptyFile(handle: UInt64) {
        let forgotten = state.withLock { state -> (path: String, notices: [KernelCacheNotice])? in
            guard let file = state.handles[file: handle], file.isKeptAfterClose else { return nil }
            state.handles.close(file: handle)
            guard let path = state.inodes.path(ofInode: file.inode),
                  !state.handles.files.values.contains(where: { $0.inode == file.inode && $0.isUnsaved }) else { return nil }
            state.inodes.detach(path)
            var notices: [KernelCacheNotice] = [.inode(file.inode)]
            if let parent = state.inodes.inode(atPath: TreePath.parent(of: path)) {
                notices.append(.entry(parent: parent, name: TreePath.name(of: path)))
                notices.append(.inode(parent))  // the folder's listing the kernel may keep
            }
            return (path, notices)
        }
        guard let forgotten else { return }
        invalidator.invalidate(forgotten.notices)
        log("\(forgotten.path): nothing was written to it since it was created; not saved (a record needs its JSON), and gone from the folder")
    }
}

extension FuseFileSystem.MountState {
    /// The tree reported a change at `path`: a file of its own may now be there (a record filed under the
    /// name, a delivery). A kept empty file there gives way to it, so the name shows the tree's file, not
    /// an empty one (and nothing of the kept file was anyone's: it holds no byte). True when one did.
    mutating func yieldKeptEmptyFile(atPath path: String) -> Bool {
        guard let inode = inodes.inode(atPath: path) else { return false }
        return handles.closeKept(ofInode: inode) != nil
    }

    /// Whether a file created and not saved yet (open, or kept empty after its close) lies within `directory`.
    func hasUnsavedFiles(within directory: String) -> Bool {
        handles.files.values.contains { file in
            file.isUnsaved && inodes.path(ofInode: file.inode).map { TreePath.isWithin($0, directory: directory) } == true
        }
    }

    /// An `open` of `inode` while it is a kept empty file: the kept handle goes, and the new one is the
    /// unsaved file (its release keeps it again if it wrote nothing). False when `inode` is no kept file.
    mutating func takeOverKeptEmptyFile(ofInode inode: UInt64, into file: inout OpenFile) -> Bool {
        guard handles.closeKept(ofInode: inode) != nil else { return false }
        file.isUnsaved = true
        file.awaitsFirstWrite = true
        if file.contents == nil { file.contents = [] }
        return true
    }
}
