import AutomergeKit

/// Merges that bring another device's changes into a held document note which record and tag fields
/// they changed; a save is then judged by what its writer read (`Edits/SupersededValues.swift`, SPEC 5b).
extension Store {
    /// The merges noted so far are shown from now on (the mount dropped the kernel's caches of what
    /// they changed): a writer that reads after this could have seen them.
    public func publishMerges() {
        let now = ContinuousClock.now
        documentFiles.publishMerges(at: now)
    }

    /// What a `tags.json` save that leaves out tag `id` does with it (see ``SupersededValues/omission(of:reading:now:)``),
    /// and the `.minutafs/conflicts` line that says so, if any.
    func omissionOfTag(_ id: String, reading: WriterRead) -> (deletes: Bool, conflictLine: String?) {
        let now = now()
        let omission = documentFiles.omission(of: RecordID(id), reading: reading, now: now)
        return omission.tagOutcome(id: id)
    }

    /// The fields a save of record (or tag) `id` writes, given what its writer read, and the
    /// `.minutafs/conflicts` lines (also logged) for every saved value not applied and every merged
    /// value the save replaced (to be kept once the save succeeded).
    func reconcileWithMerges(
        _ written: [(key: String, value: JSONValue)], current: [(key: String, value: JSONValue)], recordID id: String,
        file: String, reading: WriterRead
    ) -> (fields: [(key: String, value: JSONValue)], conflictLines: [String]) {
        let now = now()
        let reconciled = documentFiles.reconcile(written, current: current, recordID: RecordID(id), reading: reading, now: now)
        guard let (fields, outcomes) = reconciled else { return (written, []) }
        let lines = outcomes.map { $0.conflictLine(file: file, recordID: id) }
        return (fields, lines)
    }
}
