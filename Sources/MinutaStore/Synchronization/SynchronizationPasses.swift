import Synchronization

/// The synchronization passes' own counts (`.minutafs/status`: passes finished, failed merges): counted
/// by `StoreSynchronizer` once each pass is done, read by ``Store/status()``. A lock of its own, taken
/// alone: counting never waits for a document's I/O, nor makes a reader wait.
final class SynchronizationPasses: Sendable {
    private let counts = Mutex(SynchronizationCounts())

    /// Counts one finished pass, and its failed merge if it had one (`mergeFailure`: what it said).
    func countPass(mergeFailure: String?) {
        counts.withLock { counts in
            counts.passes += 1
            if let mergeFailure {
                counts.failedMerges += 1
                counts.lastFailure = mergeFailure
            }
        }
    }

    /// A copy of the counts so far.
    var snapshot: SynchronizationCounts { counts.withLock { $0 } }
}
