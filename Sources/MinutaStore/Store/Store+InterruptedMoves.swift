import AutomergeKit

/// Finishing record moves between months that a killed process left half done (see `MoveJournal`).
extension Store {
    /// Finishes every journaled move: where the record reached its new month's document, it is
    /// deleted from the old one (its images still in the old folder move along); where it did not,
    /// the old document still holds it and nothing is done. Returns the ids whose moves were
    /// finished. A move that cannot be finished now (a document that does not load, a full disk)
    /// stays journaled for the next time; the first such error is thrown after the others were tried.
    @discardableResult
    public func finishInterruptedMoves() throws(StoreError) -> [String] {
        guard let journal = moveJournal else { return [] }
        return try withDocumentWrites(.wholeStore) { () throws(StoreError) -> [String] in
            var finished: [String] = []
            var firstFailure: StoreError?
            for move in journal.pending() {
                do throws(StoreError) {
                    if try finishMove(move) { finished.append(move.id) }
                    try journal.finish(move)
                } catch {
                    firstFailure = firstFailure ?? error
                }
            }
            if let firstFailure { throw firstFailure }
            return finished
        }
    }

    /// Deletes the record of `move` from its old month when its new month holds it; whether it did.
    private func finishMove(_ move: MoveJournal.Move) throws(StoreError) -> Bool {
        guard let target = try document(of: move.destination), let arrived = RecordView.object(move.id, in: target) else { return false }
        let images = RecordView.images(of: arrived, in: target)
        let finished = try replicas.withCheckedOut(move.source) { (source: inout LoadedDocument) throws(StoreError) -> Bool in
            guard RecordView.object(move.id, in: source.document) != nil else { return false }
            try moveImages(images, from: move.source, to: move.destination)
            do { try source.document.delete(forKey: move.id) } catch { return false }
            source.invalidateView(changedRecord: move.id)
            try documentFiles.save(&source, to: move.source.documentPath)
            return true
        }
        return finished ?? false
    }
}
