import Foundation

/// The id of a record (and of a tag: the same kind of UUID), compared without regard to case.
///
/// The app writes ids upper-case (`UUID().uuidString`); a record file edited by hand, another tool or
/// an old export may carry one lower-case, and it is still the same record. A document's root keys
/// keep the case they were written in; everything the store looks up by id (a month's files, change
/// times, moved records, the record holder index) is keyed by `RecordID`, whose `text` is upper-case.
public struct RecordID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The upper-case form: what the store writes for a new id and keys its tables by.
    public let text: String

    public init(_ text: some StringProtocol) {
        self.text = text.uppercased()
    }

    /// A Foundation UUID's id.
    public init(_ uuid: UUID) {
        text = uuid.uuidString
    }

    /// A new random id, as the app makes one (RFC 4122 version 4).
    public static func random() -> RecordID { RecordID(UUID()) }

    /// The key among `keys` (a document's root keys, as written) that is this id.
    public func key(among keys: some Sequence<String>) -> String? {
        keys.first { RecordID($0) == self }
    }

    public var description: String { text }

    public static func < (left: RecordID, right: RecordID) -> Bool { left.text < right.text }
}
