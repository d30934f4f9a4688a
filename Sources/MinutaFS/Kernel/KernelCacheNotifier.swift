import CFuse3
import Dispatch
import Synchronization

/// Sends cache invalidations to the kernel through the session.
///
/// Entry invalidations take the directory's lock in the kernel, so they are sent from a serial queue of
/// their own, never from a request handler; they are coalesced while the queue is busy. Inode
/// invalidations for the mount's own saves are sent at once, from the handler, so that the program's
/// next `stat` after `close` already sees the tree's size.
final class KernelCacheNotifier: KernelCacheInvalidating {
    private struct State {
        var session: SessionPointer?
        var isOpen = true
        var pending: [KernelCacheNotice] = []
        var isDrainScheduled = false
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "minutafs.kernel-cache-invalidation")

    /// Starts sending to `session` (notices before this are dropped: the kernel had nothing cached).
    func attach(_ session: SessionPointer) {
        state.withLock { $0.session = session }
    }

    func invalidateNow(inode: UInt64) {
        guard let session = state.withLock({ $0.isOpen ? $0.session : nil }) else { return }
        _ = fuse_lowlevel_notify_inval_inode(session.raw, inode, 0, 0)
    }

    func invalidateSoon(_ notices: [KernelCacheNotice]) {
        let schedule = state.withLock { state -> Bool in
            guard state.isOpen, state.session != nil else { return false }
            state.pending += notices
            defer { state.isDrainScheduled = true }
            return !state.isDrainScheduled
        }
        if schedule {
            queue.async { [self] in drain() }
        }
    }

    private func drain() {
        while true {
            let batch = state.withLock { state -> (SessionPointer, [KernelCacheNotice])? in
                guard state.isOpen, let session = state.session, !state.pending.isEmpty else {
                    state.isDrainScheduled = false
                    state.pending = []
                    return nil
                }
                defer { state.pending = [] }
                return (session, state.pending)
            }
            guard let (session, notices) = batch else { return }
            var sent = Set<KernelCacheNotice>()
            for notice in notices where sent.insert(notice).inserted {
                // The kernel answers ENOENT for what it does not cache; nothing to do then.
                switch notice {
                case .inode(let inode):
                    _ = fuse_lowlevel_notify_inval_inode(session.raw, inode, 0, 0)
                case .entry(let parent, let name):
                    _ = name.withCString { fuse_lowlevel_notify_inval_entry(session.raw, parent, $0, name.utf8.count) }
                }
            }
        }
    }

    /// Stops sending: notices not yet sent are dropped, and this returns once none is being sent, so the
    /// session can be destroyed. Call while the worker threads still serve requests: a notice being sent
    /// may wait for a directory lock held by a program that waits for a reply.
    func close() {
        state.withLock { state in
            state.isOpen = false
            state.pending = []
        }
        queue.sync {}
    }
}
