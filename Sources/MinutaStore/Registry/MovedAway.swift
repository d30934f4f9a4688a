import AutomergeKit

/// A record this store moved to another month: where its old object is, and its fields as they were
/// there (`Writing/RecordMoves.swift` carries edits another device makes to that object).
struct MovedAway: Sendable {
    var source: Month
    var object: ObjectID
    var destination: Month
    /// The record's fields in the old document as of the move (or the last carrying), without `id`.
    var fieldsAtMove: [(key: String, value: JSONValue)]
    /// Fields as this store wrote them in the new place at the move.
    var fieldsWritten: [(key: String, value: JSONValue)]
    /// When the move was made (seconds since the epoch): the oldest are forgotten first.
    var movedAt: Int
}
