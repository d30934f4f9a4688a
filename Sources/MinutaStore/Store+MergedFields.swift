import AutomergeKit

/// Merges that bring another device's changes into a held month note which record fields they changed,
/// so a later save from a stale read keeps the merged values (`Edits/SupersededValues.swift`, SPEC 5b).
extension Store {
    /// Merges `other` into `loaded` (the document at `relative`); for a month document that gains
    /// changes, remembers the fields the merge changed, as the mount showed them before.
    func merge(_ other: Document, into loaded: inout LoadedDocument, relative: String) throws(AutomergeError) {
        loaded.noteMerged()
        let fields: (Document) -> [RecordID: [(key: String, value: JSONValue)]]
        if Month(documentPath: relative) != nil {
            fields = SupersededValues.fields(of:)
        } else if relative == "tags.automerge" {
            fields = SupersededValues.tagFields(of:)
        } else {
            try loaded.document.merge(other)
            return
        }
        guard !other.heads.allSatisfy(loaded.document.containsChange) else {
            try loaded.document.merge(other)
            return
        }
        let before = fields(loaded.document)
        try loaded.document.merge(other)
        let after = fields(loaded.document)
        let now = now()
        supersededValues.withLock { $0.noteMerge(before: before, after: after, now: now) }
    }

    /// Whether a `tags.json` save that leaves out tag `id` leaves it out only because the writer read the
    /// file before a merge brought that tag in (then it is kept, not deleted).
    func isTagNewerThanWriter(_ id: String) -> Bool {
        let now = now()
        return supersededValues.withLock { $0.wasCreatedByMerge(RecordID(id), now: now) }
    }

    /// The fields a save of record `id` writes, with stale values set back to what merges put there, and
    /// the `.minutafs/conflicts` lines for merged values the save really replaced (to be kept once the
    /// save succeeded).
    func reconcileWithMerges(
        _ written: [(key: String, value: JSONValue)], current: [(key: String, value: JSONValue)], recordID id: String,
        file: String
    ) -> (fields: [(key: String, value: JSONValue)], conflictLines: [String]) {
        let now = now()
        let reconciled = supersededValues.withLock { values -> (fields: [(key: String, value: JSONValue)], overwrites: [SupersededValues.Overwrite])? in
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
