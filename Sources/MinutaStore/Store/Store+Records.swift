import AutomergeKit

/// Writing records (SPEC section 4): routed to `RecordSaver` in the record's write lanes.
extension Store {
    /// What a write did, so the mount can refresh the names it shows.
    public struct WriteOutcome: Sendable, Equatable {
        /// The record's id and where it is shown now.
        public var id: String
        public var month: Month
        public var fileName: String
        /// Whether any document changed.
        public var changed: Bool
        /// Months whose listings changed.
        public var touchedMonths: [Month]
        /// Whether the write changed no name the store shows: the record was shown under the name written,
        /// in the month written, and keeps its start to the millisecond, so every record file name, every
        /// month and every report name stays as it was (only contents and times changed).
        public var keepsNames = false
    }

    /// Applies the JSON a user wrote to a record file named `name` in `month`'s folder.
    ///
    /// The record is the one named by the file or, for a new name, the one whose `id` the JSON
    /// gives; JSON without `id` creates a record. A startTime outside the document's month moves
    /// the record (and its images): new document first, then the old.
    /// `reading` is what the writer had read of the record: a field it saves as it read it before a merge
    /// it could not have seen keeps the merged value, and every such value is listed in
    /// `.minutafs/conflicts` (SPEC 5b, `Edits/SupersededValues.swift`). The decisions are `RecordSaver`'s
    /// (`Writing/RecordSaver.swift`).
    /// - Throws: ``StoreError/rejected(file:line:column:reason:)`` for bad input, with nothing changed.
    public func writeRecordFile(
        _ bytes: [UInt8], named name: String, in month: Month, reading: WriterRead = .unknown, createsFile: Bool = false
    ) throws(StoreError) -> WriteOutcome {
        let displayPath = month.folderPath + "/" + name
        return try events.noting(refusalsOf: bytes, to: displayPath, limit: Self.maximumJSONFileSize, at: now()) { () throws(StoreError) -> WriteOutcome in
            // The month's lane first; a record held by another month, or moved to one, asks for that lane too.
            try withDocumentWrites(growing: .month(month)) { (held: WriteClaim) throws(StoreError) -> LaneOutcome<WriteOutcome> in
                let outcome = try records.writeRecord(
                    bytes, named: name, in: month, displayPath: displayPath, reading: reading, createsFile: createsFile, held: held)
                if case .done(let done) = outcome { deletedMonths.noteWrittenBack(done.touchedMonths, by: displayPath, folder: path) }
                return outcome
            }
        }
    }

    /// `mv` of one record file onto another: allowed only when both names show the same record (a
    /// temporary name a save just wrote, see ``writeRecordFile(_:named:in:)``), and then nothing is
    /// left to do but forget the temporary name. Renaming a record's file to another record's is refused.
    public func renameRecordFile(named name: String, in month: Month, to newName: String, in newMonth: Month) throws(StoreError) {
        try records.renameRecordFile(named: name, in: month, to: newName, in: newMonth)
    }

    /// Deletes the record a file shows, and its image files.
    public func deleteRecordFile(named name: String, in month: Month) throws(StoreError) {
        // The month's lane first; a name that finds a record another month holds asks for that lane too.
        try withDocumentWrites(growing: .month(month)) { (held: WriteClaim) throws(StoreError) -> LaneOutcome<Void> in
            try records.deleteRecordFile(named: name, in: month, held: held)
        }
    }
}
