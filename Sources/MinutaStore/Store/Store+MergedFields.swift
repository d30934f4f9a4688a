import AutomergeKit

/// Merges that bring another device's changes into a held month note which record fields they changed,
/// so a later save from a stale read keeps the merged values (`Edits/SupersededValues.swift`, SPEC 5b).
extension Store {
    /// Whether a `tags.json` save that leaves out tag `id` leaves it out only because the writer read the
    /// file before a merge brought that tag in (then it is kept, not deleted).
    func isTagNewerThanWriter(_ id: String) -> Bool {
        let now = now()
        return documentFiles.supersededValues.withLock { $0.wasCreatedByMerge(RecordID(id), now: now) }
    }

    /// The fields a save of record `id` writes, with stale values set back to what merges put there, and
    /// the `.minutafs/conflicts` lines for merged values the save really replaced (to be kept once the
    /// save succeeded).
    func reconcileWithMerges(
        _ written: [(key: String, value: JSONValue)], current: [(key: String, value: JSONValue)], recordID id: String,
        file: String
    ) -> (fields: [(key: String, value: JSONValue)], conflictLines: [String]) {
        let now = now()
        let reconciled = documentFiles.supersededValues.withLock { values -> (fields: [(key: String, value: JSONValue)], overwrites: [SupersededValues.Overwrite])? in
            values.isEmpty ? nil : values.reconcile(written, current: current, recordID: RecordID(id), now: now)
        }
        guard let (fields, overwrites) = reconciled else { return (written, []) }
        let lines = overwrites.map { overwrite in
            let shown = overwrite.written.map(Self.oneLine) ?? "no value"
            let merged = overwrite.merged.map(Self.oneLine) ?? "no value"
            return "\(file): \(overwrite.field): shows \(shown) (saved through the mount); "
                + "also written on another device and merged before that save: \(merged)\n"
        }
        return (fields, lines)
    }
}
