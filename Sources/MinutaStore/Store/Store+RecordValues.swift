import AutomergeKit

/// The records of a month as JSON values, for reports (SPEC section 9): the values the record files
/// show, read from the held document instead of parsed back from the files' bytes.
extension Store {
    /// The JSON value of each record file of `month`, in `recordFiles(in:)`'s order: exactly what each
    /// file's contents encode.
    ///
    /// Only the month's view is taken (its files, shared, not duplicated; from `PublishedViews` when
    /// current); the values are parsed from those files with no lock held. Building them from the held
    /// document would hold the state lock for tens of milliseconds on a 3,000-record month, and keeping
    /// the document past the lock would make the next save copy it.
    public func recordValues(in month: Month) throws(StoreError) -> [JSONValue] {
        let files = try recordFiles(in: month)
        return files.compactMap { try? JSONParser.parse($0.contents) }
    }
}
