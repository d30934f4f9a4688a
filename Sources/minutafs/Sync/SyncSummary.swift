/// What a `minutafs sync` did (or, in a dry run, would do), for its report.
struct SyncSummary {
    var documentsChangedHere: [String] = []
    var documentsChangedThere: [String] = []
    /// How many the serving side says it changed (it counts them itself).
    var reportedChangedThere = 0
    var documentsSkipped: [String] = []
    var imagesCopiedHere: [String] = []
    var imagesCopiedThere: [String] = []
    var imageConflicts: [String] = []
    var documentCount = 0
    /// Documents this side answered from what it kept of the last sync, without loading them.
    var documentsNotLoaded = 0
    var roundTrips = 0
    var bytesSent = 0
    var bytesReceived = 0
    /// Lines said before the figures: conflict copies merged before syncing, what the mount took.
    var notes: [String] = []

    func lines(dryRun: Bool) -> [String] {
        let verb = dryRun ? "would change" : "changed"
        func list(_ items: [String]) -> String {
            guard !items.isEmpty else { return "" }
            let shown = items.prefix(10).joined(separator: ", ")
            return " (" + shown + (items.count > 10 ? ", and \(items.count - 10) more" : "") + ")"
        }
        var lines = [
            "\(documentCount) documents synced; \(verb) here: \(documentsChangedHere.count)\(list(documentsChangedHere)); "
                + "\(verb) there: \(max(reportedChangedThere, documentsChangedThere.count))\(list(documentsChangedThere))",
            "images \(dryRun ? "that would be " : "")copied here: \(imagesCopiedHere.count)\(list(imagesCopiedHere)); there: \(imagesCopiedThere.count)\(list(imagesCopiedThere))",
        ]
        for conflict in imageConflicts {
            lines.append("image conflict: \(conflict)")
        }
        if documentsNotLoaded > 0 {
            lines.append("\(documentsNotLoaded) document\(documentsNotLoaded == 1 ? "" : "s") unchanged here since the last sync, not loaded")
        }
        lines += notes
        for skipped in documentsSkipped {
            lines.append("not synced: \(skipped)")
        }
        lines.append("\(roundTrips) round trips, \(bytesSent) bytes sent, \(bytesReceived) bytes received")
        return lines
    }
}
