/// A save judged by what its writer read (SPEC 5b, `Edits/SupersededValues.swift`): the merges noted
/// as they brought another device's changes into a document decide which written values apply.
extension DocumentFiles {
    /// The fields a save of record (or tag) `id` writes, given what its writer read, and the
    /// `.minutafs/conflicts` lines for every saved value not applied and every merged value the save
    /// replaced (to be kept once the save succeeded).
    func reconcileWithMerges(
        _ written: [(key: String, value: JSONValue)], current: [(key: String, value: JSONValue)], recordID id: String,
        file: String, reading: WriterRead, now: Int
    ) -> (fields: [(key: String, value: JSONValue)], conflictLines: [String]) {
        guard let (fields, outcomes) = reconcile(written, current: current, recordID: RecordID(id), reading: reading, now: now) else {
            return (written, [])
        }
        return (fields, outcomes.map { $0.conflictLine(file: file, recordID: id) })
    }

    /// What a `tags.json` save that leaves out tag `id` does with it (see ``SupersededValues/omission(of:reading:now:)``),
    /// and the `.minutafs/conflicts` line that says so, if any.
    func omissionOfTag(_ id: String, reading: WriterRead, now: Int) -> (deletes: Bool, conflictLine: String?) {
        omission(of: RecordID(id), reading: reading, now: now).tagOutcome(id: id)
    }
}
