/// The records this store moved to another month, by id, whose old objects are watched for edits
/// another device makes to them (`Writing/RecordMoves.swift`). `MovedRecordMemory` keeps them
/// across mounts, and only its newest ones: those it did not keep are forgotten here too.
struct MovedAwayRecords: Sendable {
    private(set) var all: [RecordID: MovedAway]

    init(_ moves: [RecordID: MovedAway] = [:]) {
        all = moves
    }

    /// Record `id` moved (a later move of the same record replaces the earlier one).
    mutating func remember(_ move: MovedAway, of id: RecordID) {
        all[id] = move
    }

    /// Edits of the old object up to `fields` were carried to the record's new place.
    mutating func noteCarried(_ id: RecordID, fieldsNow fields: [(key: String, value: JSONValue)]) {
        all[id]?.fieldsAtMove = fields
    }

    /// Forgets the moves of `saved` that the memory on disk did not keep (`kept`); moves made since
    /// `saved` was taken stay.
    mutating func forgetNotKept(of saved: [RecordID: MovedAway], kept: [RecordID: MovedAway]) {
        for key in saved.keys where kept[key] == nil { all[key] = nil }
    }
}
