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
        switch omission {
        case .delete:
            return (true, nil)
        case .keep(let device):
            return (false, "tags.json \(id): left out by a save that read tags.json before \(Self.deviceName(device))'s new tag was merged; "
                + "kept it; save the list without it again to delete it\n")
        case .deleteReported(let device):
            return (true, "tags.json \(id): deleted by a save from a program that did not read tags.json through the mount; "
                + "\(Self.deviceName(device)) had created it, merged before that save\n")
        }
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
        let lines = outcomes.map { outcome in
            let written = outcome.written.map(Self.oneLine) ?? "no value"
            let merged = outcome.merged.map(Self.oneLine) ?? "no value"
            let device = Self.deviceName(outcome.device)
            let subject = "\(file): \(outcome.field): "
            switch outcome.kind {
            case .kept:
                let again = outcome.written == nil ? "save it again without \(outcome.field) to remove it" : "write it again to set \(written)"
                return subject + "not applied: the save read the file before \(device)'s change of \(outcome.field) was merged; "
                    + "kept \(merged); \(again) (record \(id))\n"
            case .replacedConcurrently:
                return subject + "shows \(written) (saved through the mount); "
                    + "also written on \(device) and merged before that save: \(merged) (record \(id))\n"
            case .replacedUnknowingly:
                return subject + "shows \(written), saved by a program that did not read the file through the mount; "
                    + "it replaced \(merged), merged from \(device) (record \(id))\n"
            }
        }
        return (fields, lines)
    }

    /// `device 8c3e1a2b`, or `another device` when the merge did not say whose value it shows.
    private static func deviceName(_ device: String?) -> String {
        device.map { "device " + $0 } ?? "another device"
    }
}
