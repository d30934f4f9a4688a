/// What the writer of a save had read of the record or tag it saves (SPEC 5b: a save is compared with
/// what its writer read, not with a guess from its values).
///
/// The mount knows it from the program behind the save (`FileTreeInterface.SaveOrigin`); a caller of
/// the store that knows nothing gives `unknown`.
public enum WriterRead: Sendable, Equatable {
    /// The writer read the file (or last saved it) at this instant: merges published after it are
    /// changes it could not have seen, and a field it saves with the value it read keeps the merged one.
    case at(ContinuousClock.Instant)
    /// The writer is setting the object back to a history snapshot (`cp` from `.minutafs/history/`,
    /// `minutafs restore`): an explicit intent, applied as written.
    case restoring
    /// Nothing is known of what the writer read (it never read the file through the mount): applied as
    /// written, and every merged value it replaces is listed in `.minutafs/conflicts`.
    case unknown
}
