/// How often the mount looked for what a sync tool delivered, and how often merging a conflict
/// copy failed (`.minutafs/status`). Tests wait on these instead of sleeping: a pass that ran is
/// an event they can see.
struct SynchronizationCounts: Sendable {
    /// Finished passes of `DocumentSynchronizer` plus `ConflictCopyMerger` (the mount's
    /// `StoreSynchronizer.synchronize`), whether or not they found anything.
    var passes = 0
    /// Passes whose merge of conflict copies failed (the copies stay as they are).
    var failedMerges = 0
    /// What the last failed merge said.
    var lastFailure: String?
}
