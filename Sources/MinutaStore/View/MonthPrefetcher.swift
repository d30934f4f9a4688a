import Dispatch
import Synchronization

/// Loads the months of a listed year folder on a background thread, one at a time, in order, so a
/// reader walking the tree (`grep -r`, `rsync`, a backup) finds each month rendered when it gets
/// there. A month already asked for and not done yet is not asked for again.
final class MonthPrefetcher: Sendable {
    private let store: Store
    private let queue = DispatchQueue(label: "minutafs.month-prefetch", qos: .utility)
    private let pending = Mutex<Set<Month>>([])

    init(store: Store) {
        self.store = store
    }

    func prefetch(_ months: [Month]) {
        let fresh = pending.withLock { pending in months.filter { pending.insert($0).inserted } }
        guard !fresh.isEmpty else { return }
        queue.async { [self] in
            for month in fresh {
                store.replicas.prefetch(month)
                _ = pending.withLock { $0.remove(month) }
            }
        }
    }

    /// Runs `work` on the same background thread, after what is queued there.
    func run(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Waits until every month asked for so far is done (for tests).
    func waitUntilIdle() {
        queue.sync {}
    }
}
