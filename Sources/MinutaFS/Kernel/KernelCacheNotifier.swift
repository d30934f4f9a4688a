import CFuse3
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Sends cache invalidations to the kernel through the session, and never one that can wait for a request
/// the mount has not answered.
///
/// That rule (libfuse's, for `fuse_lowlevel_notify_inval_entry`) matters most when the mount dies: a
/// notice that waits in the kernel keeps its thread in state D, so the killed process never closes
/// `/dev/fuse`, the kernel never aborts the connection, the request holding the lock is never answered,
/// and the mount, its store lock and the programs using it hang until someone writes to the
/// connection's `abort` file. And it is not only a matter of requests this mount has read: the kernel
/// takes a folder's lock before it queues a `rename`, so a lock can be held by a request still waiting
/// in the kernel's queue, which no bookkeeping of the mount can see. So each notice is of a kind that
/// takes no lock a request can hold:
/// - A changed name (`KernelCacheNotice.entry`): `fuse_lowlevel_notify_inval_entry` takes the folder's
///   lock, which `lookup`, `create`, `unlink`, `rename` (of both folders) and the like hold while they
///   wait for the answer. Instead the connection's epoch is incremented (`FUSE_NOTIFY_INC_EPOCH`,
///   Linux 6.16): an atomic increment, after which the kernel looks up again every name it cached
///   before, at its next use, in the program's own thread. A kernel without it is sent nothing for
///   names: it caches them for a second only (`KernelServer.entryTimeout`).
/// - A file's attributes and pages (`KernelCacheNotice.inode` of a file): dropping
///   pages locks each page, and a `read` in flight holds its pages locked until its answer. So only the
///   attributes are dropped (a spin lock); the pages go in the reader's own thread: the kernel drops
///   them when the attributes it asks for again show another size or time (`auto_inval_data`), and at
///   an `open` that does not keep them.
/// - A folder's attributes and kept listing (`.inode` of a folder that is the parent of an `.entry` in
///   the same batch, as every caller sends them): a listing's pages are locked only while the kernel
///   copies entries into them, never across a request, so they are dropped here.
///
/// Notices are sent in the caller's thread, before `invalidate` returns, one batch at a time (a serial
/// queue, which `close` also waits for): a save's `close` returns once the kernel dropped the name and
/// the folder listing it changed, so the `ls` right after it lists the record under its new name and no
/// longer the old one.
final class KernelCacheNotifier: KernelCacheInvalidating {
    private struct State {
        var session: SessionPointer?
        var isOpen = true
        /// The kernel refused `FUSE_NOTIFY_INC_EPOCH` (older than 6.16): it is not tried again.
        var lacksEpochs = false
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "minutafs.kernel-cache-invalidation")

    /// Starts sending to `session` (notices before this are dropped: the kernel had nothing cached).
    func attach(_ session: SessionPointer) {
        state.withLock { $0.session = session }
    }

    func invalidate(_ notices: [KernelCacheNotice]) {
        guard !notices.isEmpty else { return }
        queue.sync {
            guard let (session, lacksEpochs) = state.withLock({ state in
                state.isOpen ? state.session.map { ($0, state.lacksEpochs) } : nil
            }) else { return }
            send(Self.plan(notices, entriesByEpoch: !lacksEpochs), to: session)
        }
    }

    /// What one batch of notices becomes.
    struct Plan: Equatable {
        /// Increment the epoch once (every changed name of the batch).
        var incrementsEpoch = false
        /// The changed names, each once.
        var entries: [KernelCacheNotice] = []
        /// Folders whose attributes and kept listing are dropped.
        var folders: [UInt64] = []
        /// Files (or folders not named as a parent) whose attributes only are dropped.
        var attributes: [UInt64] = []
    }

    /// Sorts `notices` into the kinds of `Plan`, each once, in their first order.
    static func plan(_ notices: [KernelCacheNotice], entriesByEpoch: Bool) -> Plan {
        var plan = Plan()
        var parents = Set<UInt64>()
        var seen = Set<KernelCacheNotice>()
        for notice in notices where seen.insert(notice).inserted {
            guard case .entry(let parent, _) = notice else { continue }
            parents.insert(parent)
            plan.entries.append(notice)
            plan.incrementsEpoch = entriesByEpoch
        }
        var inodes = Set<UInt64>()
        for notice in notices {
            guard case .inode(let inode) = notice, inodes.insert(inode).inserted else { continue }
            if parents.contains(inode) { plan.folders.append(inode) } else { plan.attributes.append(inode) }
        }
        return plan
    }

    private func send(_ plan: Plan, to session: SessionPointer) {
        // The kernel answers ENOENT for what it does not cache; nothing to do then.
        // Never `fuse_lowlevel_notify_inval_entry`, which takes the folder's lock (see the type's comment):
        // a kernel without epochs keeps names for a second only.
        if plan.incrementsEpoch && !Self.incrementEpoch(of: session) {
            state.withLock { $0.lacksEpochs = true }
        }
        for folder in plan.folders {
            _ = fuse_lowlevel_notify_inval_inode(session.raw, folder, 0, 0)
        }
        for inode in plan.attributes {
            _ = fuse_lowlevel_notify_inval_inode(session.raw, inode, -1, 0)
        }
    }

    /// `FUSE_NOTIFY_INC_EPOCH` (code 8 of the kernel's `fuse_notify_code`, a header and no body), written
    /// to `/dev/fuse` directly: libfuse 3.14 has no call for it. False when the kernel refused it.
    private static func incrementEpoch(of session: SessionPointer) -> Bool {
        // struct fuse_out_header { uint32_t len; int32_t error; uint64_t unique; }, in the machine's order.
        var header = [UInt8]()
        withUnsafeBytes(of: UInt32(16)) { header += $0 }
        withUnsafeBytes(of: Int32(8)) { header += $0 }
        withUnsafeBytes(of: UInt64(0)) { header += $0 }
        let descriptor = fuse_session_fd(session.raw)
        var written: Int
        repeat {
            written = header.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        } while written < 0 && errno == EINTR
        return written == header.count
    }

    /// Stops sending: later notices are dropped, and this returns once none is being sent, so the session
    /// can be destroyed.
    func close() {
        state.withLock { $0.isOpen = false }
        queue.sync {}
    }
}
