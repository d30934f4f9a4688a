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
            guard loaded.document.commit(time: Int64(now())) == nil, let bytes = loaded.savedBytes, loaded.identity != nil,
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
