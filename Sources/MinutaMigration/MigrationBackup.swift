import AutomergeKit
import MinutaStore
/// The copy of a legacy store's JSON files made before a migration changes anything (seed 003,
/// "backup"). It goes beside the store, never inside it: inside, the sync tool would upload it and
/// the mount would show it.
///
/// It holds the whole legacy layout (seed 003 copies the whole store): `tags.json` and its
/// conflict copies, and every file under `records/` but the documents, images included.
public enum MigrationBackup {
    /// The default backup folder for a store: `STORE.backup-YYYYMMDD-HHMMSS` beside it, in the
    /// store's time zone, with `-2`, `-3`, ... added when that exists.
    public static func defaultPath(forStore storePath: String, atMilliseconds now: Int64, timeZone: StoreTimeZone) -> String {
        let c = ISO8601.components(milliseconds: now, offsetSeconds: timeZone.offsetSeconds(atMilliseconds: now))
        let stamp = ISO8601.pad(c.year, 4) + ISO8601.pad(c.month, 2) + ISO8601.pad(c.day, 2) + "-"
            + ISO8601.pad(c.hour, 2) + ISO8601.pad(c.minute, 2) + ISO8601.pad(c.second, 2)
        let base = BackingFiles.absolutePath(storePath) + ".backup-" + stamp
        var candidate = base
        var attempt = 1
        while BackingFiles.status(candidate) != nil || BackingFiles.status(candidate + incompleteSuffix) != nil {
            attempt += 1
            candidate = base + "-" + String(attempt)
        }
        return candidate
    }

    /// The suffix of a backup being written: `STORE.backup-…​.incomplete` until every file is
    /// copied and flushed, then renamed to its name. One left with this suffix is from a run that
    /// was stopped while making it.
    public static let incompleteSuffix = ".incomplete"

    /// Copies `files` (relative to the store) into `destination`, a new or empty folder, keeping
    /// their relative paths, flushed to disk. The copies go into `destination` +
    /// ``incompleteSuffix`` first, renamed to `destination` (over it when it is an empty folder)
    /// when all are there: a backup under its own name is whole. A copy that fails removes the
    /// incomplete folder again, so only a run that was stopped leaves one.
    ///
    /// - Parameter progress: called with (files copied, files in all) after each file.
    /// - Throws: ``StoreError/alreadyExists(_:)`` when `destination` exists and is not an empty
    ///   folder (or its incomplete form exists), ``StoreError/invalidName(_:)`` when it is inside
    ///   the store, or the first copy that fails (naming the file it could not read or write).
    public static func create(storePath: String, files: [String], at destination: String, progress: (Int, Int) -> Void = { _, _ in }) throws(StoreError) {
        try check(destination, forStore: storePath)
        let store = BackingFiles.absolutePath(storePath)
        let target = BackingFiles.absolutePath(destination)
        let incomplete = target + incompleteSuffix
        guard BackingFiles.status(incomplete) == nil else { throw .alreadyExists(destination + incompleteSuffix) }
        try BackingFiles.makeDirectories(incomplete)
        do {
            for (index, file) in files.enumerated() {
                let copy = incomplete + "/" + file
                try BackingFiles.makeDirectories(BackingFiles.parentPath(copy))
                try BackingFiles.copyFile(from: store + "/" + file, to: copy)
                progress(index + 1, files.count)
            }
            try BackingFiles.syncDirectory(incomplete)
            try BackingFiles.move(incomplete, to: target)
        } catch {
            // This run made it and it holds only copies: a failed backup leaves nothing behind.
            BackingFiles.removeTree(incomplete)
            throw error
        }
    }

    /// Backups of `storePath` left incomplete by a run that was stopped while making them
    /// (`STORE.backup-….incomplete` beside the store), as paths.
    public static func incompleteBackups(ofStore storePath: String) -> [String] {
        let store = BackingFiles.absolutePath(storePath)
        let parent = BackingFiles.parentPath(store)
        let prefix = BackingFiles.lastComponent(store) + ".backup-"
        let names = (try? BackingFiles.listDirectory(parent)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(incompleteSuffix) }.map { (parent == "/" ? "" : parent) + "/" + $0 }
    }

    /// Checks that a backup can go to `destination`: outside the store, and not there yet or an
    /// empty folder.
    ///
    /// - Throws: ``StoreError/invalidName(_:)`` inside the store, ``StoreError/alreadyExists(_:)``
    ///   for a file, ``StoreError/notEmpty(_:)`` for a folder with something in it.
    public static func check(_ destination: String, forStore storePath: String) throws(StoreError) {
        let target = BackingFiles.absolutePath(destination)
        guard !BackingFiles.isPath(target, inside: BackingFiles.absolutePath(storePath)) else { throw .invalidName(destination) }
        guard let status = BackingFiles.status(target) else { return }
        guard status.isDirectory else { throw .alreadyExists(destination) }
        guard try BackingFiles.listDirectory(target).isEmpty else { throw .notEmpty(destination) }
    }
}
