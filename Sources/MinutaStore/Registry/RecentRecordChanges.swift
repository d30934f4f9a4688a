/// What this store did to records lately that the listings show: when each record last changed here
/// (its file's modification time, instead of the document file's), and the names records were just
/// written or shown under before they moved (saved under a temporary name, or to another month),
/// which keep finding them for a grace period so that `mv tmp.json f` and an editor's re-read work.
struct RecentRecordChanges: Sendable {
    /// A name a record was shown or written under before it moved.
    struct FormerName: Sendable, Equatable {
        var id: String
        /// The month the record is in now.
        var month: Month
        /// Until when (seconds since the epoch) the name finds the record.
        var until: Int
    }

    private var changeTimes: [RecordID: Int] = [:]
    /// How many change times were noted: a view rendered from a copy of these takes the times again
    /// when it is kept after this moved on (``MonthReplicas/renderWithoutState(_:)``).
    private(set) var changeCount = 0
    /// By the former path (`records/2024/01/tmp.json`), byte for byte: `café.json` written
    /// precomposed and decomposed are two names (Swift's `String` would hold them equal).
    private var formerNames: [[UInt8]: FormerName] = [:]

    /// When this store last changed the record (seconds), if it did.
    func changeTime(of id: RecordID) -> Int? { changeTimes[id] }

    /// Every record this store changed, with when: far fewer than a month's records, so a view looks
    /// these up rather than each of its files here.
    var changedRecords: [RecordID: Int] { changeTimes }

    mutating func noteChange(of id: RecordID, at time: Int) {
        changeTimes[id] = time
        changeCount += 1
    }

    /// `path` finds record `id`, now in `month`, until `until`. Names whose time is over are forgotten.
    mutating func noteFormerName(_ path: String, of id: String, in month: Month, until: Int, now: Int) {
        formerNames = formerNames.filter { $0.value.until >= now }
        formerNames[Array(path.utf8)] = FormerName(id: id, month: month, until: until)
    }

    /// The record `path` still finds at `now`, if any.
    func formerName(_ path: String, now: Int) -> FormerName? {
        guard let former = formerNames[Array(path.utf8)], former.until >= now else { return nil }
        return former
    }

    /// `path` no longer finds the record it did (renamed onto the record's own name).
    mutating func forgetFormerName(_ path: String) {
        formerNames[Array(path.utf8)] = nil
    }
}
