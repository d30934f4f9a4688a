import FileTreeInterface
import Dispatch

/// Scratch files that settle into the tree (`FileTree.settles(fileNamed:inDirectory:)`): a name such as
/// `x.json.new`, `x.json.tmp.123` or `notes.txt` is held in memory while it is written, because most such
/// files are the first half of a write-then-rename save. Renamed onto the tree's name, it is a save and
/// the tree never sees the temporary name. Still there `settleDelay` seconds after its last handle
/// closed, it is a file the user really put there, and the tree gets it with one `write` (which may
/// refuse it: the file is then dropped and the refusal logged; the tree says why in its own way).
extension FuseFileSystem {
    /// Starts the wait of a settling scratch file whose last handle on `inode` closed (or that was renamed
    /// to another scratch name); a later call supersedes it.
    func scheduleSettling(ofInode inode: UInt64) {
        let scheduled = state.withLock { state -> (path: String, token: UInt64)? in
            guard let path = state.inodes.path(ofInode: inode), state.scratch[path]?.settles == true,
                  state.handles.handles(ofInode: inode).isEmpty else { return nil }
            let token = state.nextSettleToken
            state.nextSettleToken += 1
            state.scratch[path]?.settleToken = token
            return (path, token)
        }
        guard let scheduled else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + settleDelay) { [weak self] in
            self?.settle(scheduled.path, token: scheduled.token, evenIfOpen: false)
        }
    }

    /// Gives every settling scratch file to the tree now (when the mount ends).
    func settleAll() {
        let due = state.withLock { state in
            state.scratch.settlingPaths.compactMap { path in state.scratch[path].map { (path, $0.settleToken) } }
        }
        for (path, token) in due { settle(path, token: token, evenIfOpen: true) }
    }

    /// Writes the scratch file at `path` to the tree, unless it was renamed, removed, reopened or
    /// scheduled again since `token` was given.
    private func settle(_ path: String, token: UInt64, evenIfOpen: Bool) {
        let contents = state.withLock { state -> [UInt8]? in
            guard let file = state.scratch[path], file.settles, file.settleToken == token else { return nil }
            if !evenIfOpen, let inode = state.inodes.inode(atPath: path), !state.handles.handles(ofInode: inode).isEmpty {
                return nil  // open again: its last close schedules it again
            }
            return file.contents
        }
        guard let contents else { return }
        var refusal: TreeError?
        do throws(TreeError) {
            try tree.write(contents, toPath: path)
        } catch {
            refusal = error
            log("\(path): kept in memory while written, then given to the tree, which refused it: \(error)")
        }
        let notices = state.withLock { state -> [KernelCacheNotice] in
            guard state.scratch[path]?.settleToken == token else { return [] }
            state.scratch.remove(path)
            var notices: [KernelCacheNotice] = []
            if let inode = state.inodes.inode(atPath: path) {
                state.forgetCachedContent(ofInode: inode)
                notices.append(.inode(inode))
            }
            if refusal != nil {
                state.inodes.detach(path)
                if let parent = state.inodes.inode(atPath: TreePath.parent(of: path)) {
                    notices.append(.entry(parent: parent, name: TreePath.name(of: path)))
                    notices.append(.inode(parent))  // the folder's listing the kernel may keep
                }
            }
            return notices
        }
        if !notices.isEmpty { invalidator.invalidateSoon(notices) }
    }
}
