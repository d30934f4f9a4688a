/// The store's own temporary files left behind by a killed process: found, brought into their
/// documents or removed by `Replica/LeftoverFiles.swift`, each document's in its write lane.
extension Store {
    /// Removes the store's leftover temporary files anywhere in the backing folder (symbolic links are
    /// not followed): at once those this machine wrote (the caller holds the store's lock, so no process
    /// here is writing one), and those of another machine (or of an earlier version, without a machine
    /// tag) once last modified more than `age` seconds ago (a write in progress renames its temporary
    /// file within seconds, so an old one belongs to no one). Returns the relative paths removed.
    @discardableResult
    public func removeStaleTemporaryFiles(olderThan age: Int = 600) -> [String] {
        leftovers.removeStale(olderThan: age) { document, work in withDocumentWrites(.document(document), work) }
    }
}
