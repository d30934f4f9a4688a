import MinutaStore

/// The heads of each document a timer action wrote, taken before its first write to that document
/// (``StoreTimerBackend``), so that the action's changes can be found in the history afterwards.
///
/// Not locked itself: one action is carried out at a time with it (a command on a store that is not
/// mounted, or the mount under its `timerControl` lock, as `RunningTimerIndexCache` is used).
public final class ActionHeadsLog: @unchecked Sendable {
    /// Each document written since ``begin()``, in the order of first writes, with its heads then.
    var before: [(month: Month?, heads: [String])] = []

    public init() {}

    /// Forgets what an earlier action wrote.
    func begin() { before = [] }

    /// Takes `heads` of the document of `month` (tags: nil) unless it was written already in this action.
    func noteBeforeWriting(_ month: Month?, heads: () throws(StoreError) -> [String]) throws(StoreError) {
        guard !before.contains(where: { $0.month == month }) else { return }
        before.append((month, try heads()))
    }
}
