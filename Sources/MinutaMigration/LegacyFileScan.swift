import AutomergeKit
import MinutaStore
/// Every legacy JSON file of a store, found by walking it rather than by matching the one layout
/// the app wrote, so that nothing is left out in silence (issue 18): the record files in
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
    /// - Throws: ``StoreError`` when a folder cannot be listed.
    init(storePath: String) throws(StoreError) {
        for name in try BackingFiles.listDirectory(storePath).sorted()
        where name != "tags.json" && name.hasPrefix("tags") && Self.isJSONName(name) && BackingFiles.status(storePath + "/" + name)?.isRegularFile == true {
            tagCopies.append(name)
        }
        guard BackingFiles.status(storePath + "/records")?.isDirectory == true else { return }
        try walk(storePath: storePath, relative: "records")
        recordFiles.sort { $0.file.utf8.lexicographicallyPrecedes($1.file.utf8) }
    }

    private mutating func walk(storePath: String, relative: String) throws(StoreError) {
        for name in try BackingFiles.listDirectory(storePath + "/" + relative).sorted() {
            let path = relative + "/" + name
            guard let status = BackingFiles.status(storePath + "/" + path) else { continue }
            if status.isDirectory {
                try walk(storePath: storePath, relative: path)
                continue
            }
            guard status.isRegularFile else { continue }
            guard Self.isJSONName(name) else {
                if !name.contains(".automerge") && !BackingFiles.isTemporaryName(name) { otherFiles.append(path) }
                continue
            }
            if name.hasPrefix(".") {
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
