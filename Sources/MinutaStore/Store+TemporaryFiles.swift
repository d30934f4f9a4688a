/// The store's own temporary files: `.NAME.minutafs-HEX.tmp` beside the file an atomic write
/// replaces. A process killed between creating one and renaming it leaves it behind; the mount
/// never shows it, and removes it once it is surely stale.
extension Store {
    /// Removes the store's temporary files last modified more than `age` seconds ago, anywhere in
    /// the backing folder (symbolic links are not followed). A write in progress renames its
    /// temporary file within seconds, so an old one belongs to no one. Returns the relative paths
    /// removed.
    @discardableResult
    public func removeStaleTemporaryFiles(olderThan age: Int = 600) -> [String] {
        var removed: [String] = []
        var folders = [""]
        let cutoff = Self.now() - age
        while let folder = folders.popLast() {
            let prefix = folder.isEmpty ? "" : folder + "/"
            // Only folders and names of temporary files are looked at closer: the images are never stat'ed.
            guard let entries = try? FileSystem.listDirectoryKinds(folder.isEmpty ? path : absolute(folder)) else { continue }
            for (name, isDirectory) in entries {
                if isDirectory {
                    if name != ".minutafs-quarantine" { folders.append(prefix + name) }
                    continue
                }
                guard FileSystem.isTemporaryName(name), let status = FileSystem.status(absolute(prefix + name)) else { continue }
                if status.isRegularFile, status.modificationSeconds < cutoff,
                   (try? FileSystem.remove(absolute(prefix + name))) != nil {
                    removed.append(prefix + name)
                }
            }
        }
        return removed
    }
}
