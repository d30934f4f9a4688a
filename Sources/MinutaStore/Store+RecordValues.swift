import AutomergeKit

/// The records of a month as JSON values, for reports (SPEC section 9): the values the record files
/// show, read from the held document instead of parsed back from the files' bytes.
extension Store {
    /// The JSON value of each record file of `month`, in `recordFiles(in:)`'s order: exactly what each
    /// file's contents encode. A month whose document is parked (not decoded) parses its files instead.
    public func recordValues(in month: Month) throws(StoreError) -> [JSONValue] {
        try state.withLock { (state: inout State) throws(StoreError) -> [JSONValue] in
            guard let view = try monthView(month, in: &state) else { return [] }
            guard let document = state.months[month]?.document else {
                return view.files.compactMap { try? JSONParser.parse($0.contents) }
            }
            return view.files.compactMap { file -> JSONValue? in
                guard let object = RecordView.object(file.id, in: document) else {
                    return try? JSONParser.parse(file.contents)
                }
                return RecordView.json(id: file.id, record: object, in: document)
            }
        }
    }
}
