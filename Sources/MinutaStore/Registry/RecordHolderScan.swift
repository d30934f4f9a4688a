import AutomergeKit

/// The month documents in the folder as one look found them, for `RecordHolderIndex`: each one's
/// identity (nil: none), and the record ids of those the index had not read in that version (read from
/// the file's root map without loading it, `Document.rootKeysWritten`). Taken without the store's lock
/// by readers, the prefetcher and synchronization passes; under it, it is a refresh's own look.
struct RecordHolderScan: Sendable {
    var files: [(month: Month, identity: BackingFiles.Identity?)]
    var ids: [Month: Set<String>]

    /// Looks at the documents of `months` in the backing folder at `folder` (absolute), reading the ids
    /// of those whose identity is not the one the index `known`.
    init(folder: String, months: [Month], known: [Month: BackingFiles.Identity]) {
        files = []
        ids = [:]
        for month in months {
            let status = BackingFiles.status(folder + "/" + month.documentPath)
            let identity = status?.isRegularFile == true ? status?.identity : nil
            files.append((month, identity))
            if let identity, known[month] != identity { ids[month] = Self.recordIDsWritten(in: month, folder: folder) }
        }
    }

    /// The record ids `month`'s document file in `folder` holds (none when it cannot be read).
    static func recordIDsWritten(in month: Month, folder: String) -> Set<String> {
        guard let bytes = try? BackingFiles.read(folder + "/" + month.documentPath),
              let keys = try? Document.rootKeysWritten(inFile: bytes) else { return [] }
        return keys
    }
}
