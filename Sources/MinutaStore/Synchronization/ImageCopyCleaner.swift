/// Image conflict copies (`X_0 (1).jpg` beside `X_0.jpg`) whose bytes equal the original's are
/// deleted (SPEC section 5): while mounted (every synchronization), when a mount starts, and by
/// `minutafs merge` (first thing `ConflictCopyMerger.mergeAll` does). A copy that differs is left for
/// the user.
struct ImageCopyCleaner {
    let store: Store

    /// Deletes every image conflict copy in a month folder that is byte for byte its original (an app
    /// image name beside it); one report per copy deleted. The folders are listed in no write lane;
    /// each copy is compared and deleted in its month's lane, so an image written through the mount
    /// meanwhile is compared as written.
    func removeIdenticalCopies() throws(StoreError) -> [MergeReport] {
        var reports: [MergeReport] = []
        for month in try store.months() {
            let folder = store.replicas.absolute(month.folderPath)
            guard BackingFiles.status(folder)?.isDirectory == true else { continue }
            let candidates = try BackingFiles.listDirectory(folder).compactMap { name -> (copy: String, original: String)? in
                guard let original = ImageConflictCopyName.original(ofCopy: name), PassThroughFile.imageOwner(original) != nil else { return nil }
                return (name, original)
            }
            guard !candidates.isEmpty else { continue }
            reports += try store.withDocumentWrites(.month(month)) { () throws(StoreError) -> [MergeReport] in
                try Self.removeIdentical(candidates, in: folder, of: month)
            }
        }
        return reports
    }

    /// Removes those of `candidates` (copy and original names in the month's `folder`, absolute) whose
    /// bytes are the original's. Runs in the month's write lane.
    private static func removeIdentical(_ candidates: [(copy: String, original: String)], in folder: String, of month: Month) throws(StoreError) -> [MergeReport] {
        var removed: [MergeReport] = []
        for (name, original) in candidates {
            guard let copyStatus = BackingFiles.status(folder + "/" + name), copyStatus.isRegularFile,
                  let originalStatus = BackingFiles.status(folder + "/" + original), originalStatus.isRegularFile,
                  copyStatus.size == originalStatus.size, copyStatus.size > 0 else { continue }  // empty: still being delivered
            // Unreadable now (being written by the sync tool): looked at again next time.
            guard let copyBytes = try? BackingFiles.read(folder + "/" + name),
                  let originalBytes = try? BackingFiles.read(folder + "/" + original),
                  copyBytes == originalBytes else { continue }
            try BackingFiles.remove(folder + "/" + name)
            removed.append(MergeReport(copy: month.folderPath + "/" + name, primary: month.folderPath + "/" + original, outcome: .duplicateRemoved))
        }
        return removed
    }
}
