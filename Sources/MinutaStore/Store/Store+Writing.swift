/// Moves remembered across mounts.
extension Store {
    /// Writes the moves to `MovedRecordMemory` (keeping its newest ones), with `state` released. A
    /// failure is logged: the edits it would carry stay in the old month's document, and this mount
    /// still carries them.
    func rememberMovesOnDisk() {
        guard let movedRecordMemory else { return }
        let moves = replicas.withState { $0.movedAway.all }
        do throws(StoreError) {
            let kept = try movedRecordMemory.save(moves)
            replicas.withState { state in state.movedAway.forgetNotKept(of: moves, kept: kept) }
        } catch {
            log("cannot remember moved records in \(movedRecordMemory.path): \(error)")
        }
    }
}
