import AutomergeKit

/// Bounding memory: a loaded month document takes about a hundred times its file's size (a
/// 300-record month, 19 KB on disk, about 1.7 MB), so a store keeps at most `loadedMonthLimit` of them
/// decoded. The least recently used others are *parked*: the bytes they were last read or written as
/// (equal to the document: only documents with nothing unsaved are parked), their identity and their
/// record files. Listing and reading a parked month's files needs nothing more; an edit, a merge, the
/// conflicts of its records or a change of its file underneath loads the document again from those
/// bytes, so a file replaced by a sync tool is still merged with what this store held.
extension Store {
    /// How many month documents stay decoded (the ten-year benchmark store: 260 MB resident with all
    /// 120 loaded).
    static let loadedMonthLimit = 12

    /// A month document set aside: see the extension's comment.
    struct ParkedMonth: Sendable {
        var bytes: [UInt8]
        var identity: BackingFiles.Identity?
        var view: MonthView?
        /// Whether any of its records has a field with concurrent values (`conflictReport` skips it if not).
        var hasConflicts: Bool
        /// ``LoadedDocument/lastReadHeads`` when it was parked.
        var lastReadHeads: [ChangeHash]
    }

    /// The month documents a store holds, decoded or parked; a month is in one or the other.
    struct MonthDocuments: Sendable {
        private(set) var loaded: [Month: LoadedDocument] = [:]
        private(set) var parked: [Month: ParkedMonth] = [:]
        /// When each month was last loaded or asked for (a counter), for choosing what to park.
        private(set) var lastUse: [Month: UInt64] = [:]
        private var clock: UInt64 = 0

        mutating func markUsed(_ month: Month) {
            clock += 1
            lastUse[month] = clock
        }

        /// The decoded document; setting one (or nil) drops the month's parked form.
        subscript(month: Month) -> LoadedDocument? {
            get { loaded[month] }
            set {
                loaded[month] = newValue
                parked[month] = nil
            }
        }

        /// Forgets a parked month's record files, to be computed again from its bytes when next listed.
        mutating func dropParkedView(of month: Month) {
            parked[month]?.view = nil
        }

        mutating func park(_ month: Month, as parkedMonth: ParkedMonth) {
            loaded[month] = nil
            parked[month] = parkedMonth
        }
    }

    /// Parks the least recently used decoded months beyond `loadedMonthLimit` that hold nothing unsaved,
    /// never `kept` (the month being loaded).
    func parkLeastRecentlyUsedMonths(in state: inout State, keeping kept: Month) {
        var excess = state.months.loaded.count - Self.loadedMonthLimit
        guard excess > 0 else { return }
        let candidates = state.months.loaded.keys.sorted {
            (state.months.lastUse[$0] ?? 0) < (state.months.lastUse[$1] ?? 0)
        }
        for month in candidates where excess > 0 && month != kept {
            guard var loaded = state.months[month] else { continue }
            // Edits not committed yet would be lost; so would changes not saved or not applied yet.
            guard loaded.document.commit() == nil, let bytes = loaded.savedBytes, loaded.identity != nil,
                  loaded.document.changeCount == loaded.savedChangeCount, !loaded.document.hasPendingChanges
            else { continue }
            let parked = ParkedMonth(bytes: bytes, identity: loaded.identity, view: loaded.view,
                                     hasConflicts: Self.hasConflicts(in: loaded.document), lastReadHeads: loaded.lastReadHeads)
            state.months.park(month, as: parked)
            excess -= 1
        }
    }

    /// The parked month decoded again, as it was when parked.
    func unparked(_ parked: ParkedMonth, month: Month) throws(StoreError) -> LoadedDocument {
        do {
            var document = try Document.load(parked.bytes)
            document.setActor(actor)
            return LoadedDocument(document: document, identity: parked.identity, view: parked.view,
                                  savedChangeCount: document.changeCount, savedBytes: parked.bytes, lastReadHeads: parked.lastReadHeads)
        } catch {
            throw .documentOperationFailed(file: month.documentPath, operation: "loading the month again from the bytes it was set aside with", cause: error)
        }
    }

    /// Whether any record of a month document has a field with concurrent values.
    static func hasConflicts(in document: Document) -> Bool {
        document.keys(of: .root).contains { key in
            guard let record = RecordView.object(key, in: document) else { return false }
            return document.keys(of: record).contains { document.values(of: record, key: $0).count > 1 }
        }
    }
}
