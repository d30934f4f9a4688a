import AutomergeKit

/// A record held by two month documents (one synced, the other not yet, or a move a killed process
/// left half done) is shown once (SPEC section 4): in the month of its start (store time zone), when
/// that month's document holds it too. The other copy is listed in `.minutafs/status`.
extension Store {
    /// A copy of a record that is not shown because the month of its start holds the record too.
    public struct HiddenCopy: Sendable, Equatable {
        public var id: String
        /// Where the copy that is not shown is.
        public var document: String
        /// The folder the record is shown in.
        public var shownIn: String
    }

    /// The records held twice whose second copy is not shown, by document.
    public var hiddenCopies: [HiddenCopy] {
        state.withLock { state in state.hiddenCopies.values.sorted { ($0.document, $0.id) < ($1.document, $1.id) } }
    }

    /// `records` of `month`'s document without those whose start falls in another month whose document
    /// holds the same record (upper-case id compared): those are shown there.
    func hidingCopiesFiledElsewhere(
        _ records: [(id: String, object: ObjectID, startTime: Int64?)], in month: Month, state: inout State
    ) throws(StoreError) -> [(id: String, object: ObjectID, startTime: Int64?)] {
        for key in state.hiddenCopies.keys where key.hasPrefix(month.documentPath + " ") { state.hiddenCopies[key] = nil }
        var kept: [(id: String, object: ObjectID, startTime: Int64?)] = []
        kept.reserveCapacity(records.count)
        for record in records {
            guard let start = record.startTime, let home = timeZone.month(ofMilliseconds: start), home != month,
                  let other = try loadMonth(home, in: &state, parkingOthers: false),
                  other.document.keys(of: .root).contains(where: { $0.uppercased() == record.id.uppercased() }) else {
                kept.append(record)
                continue
            }
            state.hiddenCopies[month.documentPath + " " + record.id.uppercased()] =
                HiddenCopy(id: record.id, document: month.documentPath, shownIn: home.folderPath)
        }
        return kept
    }
}
