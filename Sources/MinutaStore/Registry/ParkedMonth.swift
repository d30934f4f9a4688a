import AutomergeKit

/// A month document set aside to bound memory (`Store+Parking.swift`): the bytes it was last read or
/// written as, its identity and its record files.
struct ParkedMonth: Sendable {
    var bytes: [UInt8]
    var identity: BackingFiles.Identity?
    var view: MonthView?
    /// Whether any of its records has a field with concurrent values (`conflictReport` skips it if not).
    var hasConflicts: Bool
    /// ``LoadedDocument/lastReadHeads`` when it was parked.
    var lastReadHeads: [ChangeHash]
}
