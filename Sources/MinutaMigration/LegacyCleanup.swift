import AutomergeKit
import MinutaStore
/// `minutafs migrate --cleanup`: removes a migrated store's legacy JSON files, and nothing else.
public enum LegacyCleanup {
    /// Removes `files` (relative to the store): `tags.json` and the record files the migration
    /// read. Images and folders stay. Call it only after a verified migration.
    public static func removeLegacyFiles(storePath: String, files: [String]) throws(StoreError) {
        for file in files where file.hasSuffix(".json") && BackingFiles.status(storePath + "/" + file)?.isRegularFile == true {
            try BackingFiles.remove(storePath + "/" + file)
        }
    }
}
