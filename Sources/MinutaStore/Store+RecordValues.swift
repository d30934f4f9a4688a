import AutomergeKit

/// The records of a month as JSON values, for reports (SPEC section 9): the values the record files
/// show, read from the held document instead of parsed back from the files' bytes.
extension Store {
    /// The JSON value of each record file of `month`, in `recordFiles(in:)`'s order: exactly what each
    /// file's contents encode.
    ///
    /// The store's lock is held only to copy the month's view (its files, shared, not duplicated); the
    /// values are parsed from the copied files after it is released. Building them from the held
    /// document under the lock made every report read of a 3,000-record month hold up saves for tens
    /// of milliseconds, and keeping the document past the lock would make the next save copy it.
    public func recordValues(in month: Month) throws(StoreError) -> [JSONValue] {
        let files = try recordFiles(in: month)
        return files.compactMap { try? JSONParser.parse($0.contents) }
    }
}
