/// The store's entry points for what sync tools deliver (SPEC section 5). The decisions are the
/// synchronizer's (`Synchronization/`): `DocumentSynchronizer` merges document files another device
/// replaced, `ConflictCopyMerger` merges conflict copies, `ImageCopyCleaner` removes identical image
/// copies; `StoreSynchronizer` runs them as one pass and counts it (`SynchronizationPasses`).
extension Store {
    /// Merges document files that changed on disk since this store last read or wrote them, writing
    /// back what the file lacks; returns the documents (relative paths) whose content changed
    /// (``DocumentSynchronizer/synchronizeDocuments()``).
    public func synchronizeDocuments() throws(StoreError) -> [String] {
        try DocumentSynchronizer(store: self).synchronizeDocuments()
    }

    /// Merges every conflict copy into its primary once, and removes image conflict copies identical to
    /// their originals (``ConflictCopyMerger/mergeAll()``): `minutafs merge` and each synchronization pass.
    public func mergeConflictCopies() throws(StoreError) -> [MergeReport] {
        try ConflictCopyMerger(store: self).mergeAll()
    }
}
