/// `.minutafs-quarantine/`: where files that do not load (a conflict copy, a killed save's leftover)
/// are moved instead of being deleted, so nothing a sync tool delivered is lost.
extension BackingFolder {
    /// Moves the file at `relative` into `.minutafs-quarantine/` under its path flattened (`records/2024/x`
    /// as `records__2024__x`, numbered when taken); returns where it went, relative to the folder.
    /// - Throws: ``StoreError/backingFolderGone(_:)`` when the folder is no longer the store's own, and
    ///   what making the folder or moving the file fails with.
    func quarantine(_ relative: String) throws(StoreError) -> String {
        guard isPresent else { throw .backingFolderGone(path) }
        let folder = ".minutafs-quarantine"
        try BackingFiles.makeDirectories(path + "/" + folder)
        let flattened = relative.split(separator: "/").joined(separator: "__")
        var destination = folder + "/" + flattened
        var attempt = 1
        while BackingFiles.status(path + "/" + destination) != nil {
            attempt += 1
            destination = folder + "/" + flattened + "." + String(attempt)
        }
        try BackingFiles.move(path + "/" + relative, to: path + "/" + destination)
        return destination
    }
}
