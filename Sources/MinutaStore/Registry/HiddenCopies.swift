/// The copies of records a month's view leaves out because another month shows the record (a record
/// held by two documents: `Replica/MonthReplicas+RecordHolders.swift`), for `.minutafs/status`. Each view says
/// again what it leaves out when it is rendered.
struct HiddenCopies: Sendable {
    /// By document and upper-cased record id.
    private var copies: [String: Store.HiddenCopy] = [:]

    /// Forgets what `month`'s view left out, before the view is rendered again.
    mutating func forget(in month: Month) {
        copies = copies.filter { $0.value.document != month.documentPath }
    }

    /// `month`'s view leaves out its copy of record `id`, which `shownIn` shows.
    mutating func hide(_ id: String, in month: Month, shownIn: Month) {
        copies[month.documentPath + " " + RecordID(id).text] = Store.HiddenCopy(id: id, document: month.documentPath, shownIn: shownIn.folderPath)
    }

    /// Every copy left out, by document and id.
    var all: [Store.HiddenCopy] {
        copies.values.sorted { ($0.document, $0.id) < ($1.document, $1.id) }
    }
}
