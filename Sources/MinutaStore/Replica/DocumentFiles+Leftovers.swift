import AutomergeKit

/// A leftover temporary document (a killed save's, `Replica/LeftoverFiles.swift`) brought into its
/// document: where it goes is decided here, beside the files' other merges.
extension DocumentFiles {
    /// Brings `leftover` (read from the temporary file at `relative`) into the document at `primary`.
    /// When the primary does not load (known unreadable, or not loading now) it goes to a conflict copy
    /// beside it, and the copy's path is returned; otherwise `checkOut` hands over the held document,
    /// which the leftover is merged into and saved with, and nil is returned. The caller removes the
    /// temporary file once this returns.
    /// - Throws: ``StoreError/documentOperationFailed(file:operation:cause:)`` when the primary could not
    ///   be saved with the leftover's changes (it stays as it is, SPEC 5a), and what saving throws.
    func bringInLeftover(
        _ leftover: Document, from relative: String, into primary: String,
        checkOut: ((inout LoadedDocument) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) -> String? {
        if doesNotLoad(primary) {
            let copy = try writeConflictCopy(of: leftover, for: primary)
            events.note("\(relative): kept what an earlier minutafs left in \(copy) (\(primary) does not load)")
            return copy
        }
        try checkOut { (loaded: inout LoadedDocument) throws(StoreError) in
            loaded.noteMerged()
            // A leftover whose changes the primary could not be saved with stays as it is (SPEC 5a).
            // Not `merge(_:into:relative:)`: a killed save of this machine's is not another device's
            // change, so no field it sets is noted as superseded.
            do throws(AutomergeError) {
                try loaded.document.requireSavable(merging: leftover)
                try loaded.document.merge(leftover)
            } catch {
                throw .documentOperationFailed(file: relative, operation: "merging a killed save's leftover file", cause: error)
            }
            try save(&loaded, to: primary)
        }
        return nil
    }
}
