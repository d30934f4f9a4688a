import Synchronization

/// Month documents deleted from the backing folder while the store holds them (a user's `rm`, a sync
/// tool's delete from another device): their records stay shown from memory, read-only, and each
/// change (gone, back, written back by a save) is one line in `.minutafs/errors`. A lock of its own,
/// taken inside the store's `state` or alone, never around another: listing months reads it under `state`.
final class DeletedDocuments: Sendable {
    private let months = Mutex<Set<Month>>([])
    private let events: StoreEvents

    init(events: StoreEvents) {
        self.events = events
    }

    /// The deleted months, in order.
    var all: [Month] { months.withLock { $0.sorted() } }

    /// The deleted months of one year (`2024`).
    func months(inYear yearName: String) -> Set<Month> {
        months.withLock { $0.filter { $0.yearName == yearName } }
    }

    func contains(_ month: Month) -> Bool {
        months.withLock { $0.contains(month) }
    }

    /// Looks at the files of the `held` month documents (with their record counts) in the backing folder
    /// at `folder` (absolute): one gone is noted deleted, one back is noted back. Returns the months whose
    /// state changed (their record files change from writable to read-only or back). Anything at a
    /// month's path (a link, a folder, a file that does not load) is not a deletion: that is an
    /// unreadable document (SPEC 5a, 5b), refused with EROFS.
    func notice(held: [(month: Month, records: Int)], folder: String) -> [Month] {
        var changed: [Month] = []
        for (month, records) in held {
            let exists = BackingFiles.status(folder + "/" + month.documentPath) != nil
            if !exists, months.withLock({ $0.insert(month).inserted }) {
                note("\(month.documentPath) was deleted from the folder while mounted; its \(records) record(s) are still shown, read-only; saving an edit to one of them writes the month back")
                changed.append(month)
            } else if exists, months.withLock({ $0.remove(month) }) != nil {
                note("\(month.documentPath) is back in the folder; its records are writable again")
                changed.append(month)
            }
        }
        return changed
    }

    /// After a save of `file` touching `touched`: a deleted document among them that is back on disk in
    /// `folder` (absolute) is writable again.
    func noteWrittenBack(_ touched: [Month], by file: String, folder: String) {
        for month in touched where contains(month) {
            guard BackingFiles.status(folder + "/" + month.documentPath)?.isRegularFile == true else { continue }
            months.withLock { _ = $0.remove(month) }
            note("\(month.documentPath) was written back to the folder by a save of \(file); its records are writable again")
        }
    }

    /// A line for `.minutafs/errors` that is not a refused write (not counted as one).
    private func note(_ line: String) {
        events.note(line, logged: false)
    }
}
