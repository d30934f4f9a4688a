import AutomergeKit

/// Writing `tags.json`: routed to `TagsSaver` (`Writing/TagsSaver.swift`) in the tags' write lane.
extension Store {
    /// Applies a written `tags.json`. `reading` is what the writer had read of it (see
    /// ``writeRecordFile(_:named:in:reading:)``): a tag a merge brought in after that read is kept,
    /// not deleted, when the list leaves it out.
    public func writeTagsFile(_ bytes: [UInt8], reading: WriterRead = .unknown) throws(StoreError) -> Bool {
        try events.noting(refusalsOf: bytes, to: "tags.json", limit: Self.maximumJSONFileSize, at: now()) { () throws(StoreError) -> Bool in
            try withDocumentWrites(.tags) { () throws(StoreError) -> Bool in
                try documentFiles.requireReadableFile(DocumentName.tagsPath)
                return try tagsSaver.writeTags(bytes, reading: reading)
            }
        }
    }
}
