/// What merging one conflict copy (or removing one image copy) did: one line of `minutafs merge`'s
/// output and of a mount's verbose log (`ConflictCopyMerger`, `ImageCopyCleaner`).
public struct MergeReport: Sendable, Equatable, CustomStringConvertible {
    public enum Outcome: Sendable, Equatable {
        /// Merged; the copy was deleted after the primary was durably written.
        case merged(newChanges: Int)
        /// The copy could not be loaded and was moved to `.minutafs-quarantine/`.
        case quarantined(reason: String, movedTo: String)
        /// An image conflict copy identical to its original was deleted.
        case duplicateRemoved
        /// Left as it is: its document does not load now (SPEC 5a), or the copy could not be read.
        case waiting(reason: String)
    }

    public var copy: String
    public var primary: String
    public var outcome: Outcome

    public var description: String {
        switch outcome {
        case .merged(let count): "merged \(copy) into \(primary) (\(count) new change\(count == 1 ? "" : "s")), copy removed"
        case .quarantined(let reason, let movedTo): "could not load \(copy) (\(reason)); moved it to \(movedTo)"
        case .duplicateRemoved: "removed \(copy), identical to \(primary)"
        case .waiting(let reason): "left \(copy) as it is: \(reason)"
        }
    }
}
