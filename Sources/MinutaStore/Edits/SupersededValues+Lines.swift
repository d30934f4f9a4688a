/// The `.minutafs/conflicts` lines (also logged) that say what a save did where a merge had changed
/// a field or brought a tag in (SPEC 5b).
extension SupersededValues {
    /// `device 8c3e1a2b`, or `another device` when the merge did not say whose value it shows.
    static func deviceName(_ device: String?) -> String {
        device.map { "device " + $0 } ?? "another device"
    }
}

extension SupersededValues.Omission {
    /// Whether the `tags.json` save that leaves out tag `id` deletes it, and the line that says what
    /// became of it, if any.
    func tagOutcome(id: String) -> (deletes: Bool, conflictLine: String?) {
        switch self {
        case .delete:
            return (true, nil)
        case .keep(let device):
            return (false, "tags.json \(id): left out by a save that read tags.json before \(SupersededValues.deviceName(device))'s new tag was merged; "
                + "kept it; save the list without it again to delete it\n")
        case .deleteReported(let device):
            return (true, "tags.json \(id): deleted by a save from a program that did not read tags.json through the mount; "
                + "\(SupersededValues.deviceName(device)) had created it, merged before that save\n")
        }
    }
}

extension SupersededValues.Outcome {
    /// The line for this outcome of a save of `file`, record (or tag) `id`.
    func conflictLine(file: String, recordID id: String) -> String {
        let written = self.written.map(\.oneLine) ?? "no value"
        let merged = self.merged.map(\.oneLine) ?? "no value"
        let device = SupersededValues.deviceName(self.device)
        let subject = "\(file): \(field): "
        switch kind {
        case .kept:
            let again = self.written == nil ? "save it again without \(field) to remove it" : "write it again to set \(written)"
            return subject + "not applied: the save read the file before \(device)'s change of \(field) was merged; "
                + "kept \(merged); \(again) (record \(id))\n"
        case .replacedConcurrently:
            return subject + "shows \(written) (saved through the mount); "
                + "also written on \(device) and merged before that save: \(merged) (record \(id))\n"
        case .replacedUnknowingly:
            return subject + "shows \(written), saved by a program that did not read the file through the mount; "
                + "it replaced \(merged), merged from \(device) (record \(id))\n"
        }
    }
}
