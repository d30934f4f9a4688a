import AutomergeKit

/// Conflict copies read without being merged into the store (SPEC section 9: "without a mount,
/// `report` reads documents merged with their waiting conflict copies, as the mount shows them").
///
/// A store opened with `mergesWaitingCopiesInMemory` (the read-only commands: `report`, `log`, `now`)
/// merges every conflict copy beside a document into the document it holds when it first reads it,
/// in memory only: nothing is written, renamed or deleted, no view of such a month is taken from or
/// put into the view cache (it would not be the file's), and a copy that does not load is left as
/// it is and named. `minutafs merge` or a mount merges the copies into the store. The reading and
/// merging is `Conflicts/WaitingCopyReader.swift`'s.
extension Store {
    /// What the read-only merging of conflict copies found: the copies merged in memory and those
    /// that could not be read (relative paths, in order).
    public struct WaitingCopies: Sendable, Equatable {
        public var merged: [String] = []
        public var unreadable: [(copy: String, reason: String)] = []

        public static func == (left: WaitingCopies, right: WaitingCopies) -> Bool {
            left.merged == right.merged && left.unreadable.map(\.copy) == right.unreadable.map(\.copy)
                && left.unreadable.map(\.reason) == right.unreadable.map(\.reason)
        }
    }

    /// The conflict copies merged in memory so far (and those that could not be read).
    public var waitingCopies: WaitingCopies {
        let found = waitingCopyReader.found
        return WaitingCopies(merged: found.merged, unreadable: found.unreadable)
    }
}
