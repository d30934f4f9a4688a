import AutomergeKit

/// Writing `tags.json`: routed to `TagsSaver` (`Writing/TagsSaver.swift`) in the tags' write lane.
extension Store {
    /// Applies a written `tags.json`. `reading` is what the writer had read of it (see
    /// ``writeRecordFile(_:named:in:reading:)``): a tag a merge brought in after that read is kept,
    /// not deleted, when the list leaves it out.
    public func writeTagsFile(_ bytes: [UInt8], reading: WriterRead = .unknown) throws(StoreError) -> Bool {
        guard bytes.count <= Self.maximumJSONFileSize else {
            let error = StoreError.rejected(file: "tags.json", line: nil, column: nil, reason: .tooLarge(limit: Self.maximumJSONFileSize))
            events.noteRejection(error)
            throw error
        }
        return try withDocumentWrites(.tags) { () throws(StoreError) -> Bool in
            try documentFiles.requireReadableFile("tags.automerge")
            do throws(StoreError) {
                return try tagsSaver.writeTags(bytes, reading: reading)
            } catch {
                if case .rejected = error { events.noteRejected(error, bytes: bytes, file: "tags.json", at: now()) }
                throw error
            }
        }
    }
}
