import AutomergeKit
import MinutaStore
#if canImport(Glibc)
import Glibc
#endif
/// Every legacy JSON file of a store, found by walking it rather than by matching the one layout
/// the app wrote, so that nothing is left out in silence: the record files in
/// `records/YYYY/MM/`, the files that look like legacy JSON anywhere else under `records/` (a sync
/// tool's duplicate folder such as `records/2024/02 (1)/`, a month folder named `1`, a subfolder),
/// which the migration refuses with a reason, and `tags.json` with its conflict copies.
struct LegacyFileScan: Sendable {
    /// Record files where the app keeps them, relative to the store, in path order.
    var recordFiles: [(file: String, month: Month)] = []
    /// `.json` files elsewhere under `records/`, with why they are not read.
    var refused: [LegacyReadFailure] = []
    /// Hidden `.json` files (such as macOS `._` files) under `records/`: not read, but told.
    var hidden: [String] = []
    /// Every other regular file under `records/` (images, mostly), without documents and their
    /// conflict copies: they go into the backup with the JSON files, never changed or removed.
    var otherFiles: [String] = []
    /// Conflict copies of `tags.json` beside it (`tags (Alice's conflicted copy 2024-01-15).json`).
    var tagCopies: [String] = []

    var isEmpty: Bool { recordFiles.isEmpty && refused.isEmpty && tagCopies.isEmpty }

    static func isJSONName(_ name: String) -> Bool { name.lowercased().hasSuffix(".json") }

    /// Scans the store at `storePath`.
    ///
    /// A symbolic link under `records/` (a year or month folder, a record file, an image), or at
    /// `records` or a `tags*.json` name, is refused by name rather than followed or skipped: the
    /// documents would be written through it, and the backup, the verification and `--cleanup`
    /// would each see another set of files.
    ///
    /// - Throws: ``StoreError`` when a folder cannot be listed.
    init(storePath: String) throws(StoreError) {
        for name in try BackingFiles.listDirectory(storePath).sorted() where name.hasPrefix("tags") && Self.isJSONName(name) {
            guard let status = BackingFiles.status(storePath + "/" + name) else { continue }
            if status.isSymbolicLink {
                refused.append(Self.linkRefusal(storePath: storePath, relative: name))
            } else if name != "tags.json" && status.isRegularFile {
                tagCopies.append(name)
            }
        }
        guard let records = BackingFiles.status(storePath + "/records") else { return }
        if records.isSymbolicLink {
            refused.append(Self.linkRefusal(storePath: storePath, relative: "records"))
            return
        }
        guard records.isDirectory else { return }
        try walk(storePath: storePath, relative: "records")
        recordFiles.sort { $0.file.utf8.lexicographicallyPrecedes($1.file.utf8) }
    }

    /// Why a symbolic link is not migrated, and what to do about it.
    static func linkRefusal(storePath: String, relative: String) -> LegacyReadFailure {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(storePath + "/" + relative, &buffer, buffer.count - 1)
        let target = count > 0 ? " to " + String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return LegacyReadFailure(
            file: relative,
            reason: "a symbolic link\(target); the migration does not follow links, so what it points to would be left out of the documents, the backup and the check. Replace the link with a copy of what it points to (or move that here), then run `minutafs migrate` again")
    }

    /// Whether the mount hides a file of this name (`PassThroughFiles.isHidden`: an Office lock
    /// file `~$x.json`, `.~lock…`, sync tools' own files), so the migration does not read it either.
    static func isHiddenName(_ name: String) -> Bool {
        name.hasPrefix(".") || PassThroughFiles.isHidden(name)
    }

    private mutating func walk(storePath: String, relative: String) throws(StoreError) {
        for name in try BackingFiles.listDirectory(storePath + "/" + relative).sorted() {
            let path = relative + "/" + name
            guard let status = BackingFiles.status(storePath + "/" + path) else { continue }
            if status.isSymbolicLink {
                refused.append(Self.linkRefusal(storePath: storePath, relative: path))
                continue
            }
            if status.isDirectory {
                try walk(storePath: storePath, relative: path)
                continue
            }
            guard status.isRegularFile else {
                if Self.isJSONName(name) {
                    refused.append(LegacyReadFailure(file: path, reason: "not a regular file (a pipe, socket or device), so not read; remove it or put the record file there"))
                }
                continue
            }
            guard Self.isJSONName(name) else {
                if !name.contains(".automerge") && !BackingFiles.isTemporaryName(name) { otherFiles.append(path) }
                continue
            }
            if Self.isHiddenName(name) {
                hidden.append(path)
                continue
            }
            let parts = path.split(separator: "/").map(String.init)
            if parts.count == 4, let month = Month(yearName: parts[1], monthName: parts[2]) {
                recordFiles.append((path, month))
            } else {
                refused.append(LegacyReadFailure(
                    file: path, reason: "not in a records/YYYY/MM/ folder (a four-digit year and a two-digit month), so not read; move it into the folder of its month, or remove it if it is a duplicate"))
            }
        }
    }
}
