/// A key of a record's map in a month document, and of its JSON file (SPEC section 2: `startTime`,
/// `endTime`, `tagId`, `comment`, `images`; `id` is the record's key in the document's root map, and
/// the first key of its file). The one spelling of each: code that reads or writes a record field names
/// it here, never as a string of its own.
package enum RecordField: String, CaseIterable, Sendable {
    case id
    case startTime
    case endTime
    case tagId
    case comment
    case images

    /// The key as the document and the file spell it.
    package var key: String { rawValue }

    /// The field `key` names, if it is one of the record's known fields (exact spelling and case).
    package init?(key: some StringProtocol) {
        self.init(rawValue: String(key))
    }
}
