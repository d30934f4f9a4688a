import AutomergeKit

/// The month views kept between mounts (`Backing/MonthViewCache.swift`, issue 16): a month whose file
/// has a view in the cache is listed and read from it, parked, without decoding the document.
extension Store {
    /// The month's view from the cache, the month parked with it; nil when the cache has none for the
    /// file as it is, or when one of its records may be held by another month's document (then the
    /// document decides which copy is shown, `Store+DuplicateRecords.swift`).
    func cachedMonthView(_ month: Month, in state: inout State) -> MonthView? {
        guard let cache = viewCache, state.unreadable[month.documentPath] == nil,
              let (bytes, identity) = try? FileSystem.readWithIdentity(absolute(month.documentPath)), !bytes.isEmpty,
              let entry = cache.entry(for: cache.key(ofDocument: bytes)) else { return nil }
        refreshRecordHolders(in: &state)
        for record in entry.records where !state.recordHolders.otherHolders(of: record.id.uppercased(), besides: month).isEmpty {
            return nil
        }
        for key in state.hiddenCopies.keys where key.hasPrefix(month.documentPath + " ") { state.hiddenCopies[key] = nil }
        let files = entry.records.map { record in
            RecordFile(name: record.name, id: record.id, contents: record.contents,
                       modificationTime: state.recordChangeTimes[record.id.uppercased()] ?? identity.modificationSeconds)
        }
        let view = MonthView(files: files, startTimes: entry.records.map(\.startTime))
        state.months.park(month, as: ParkedMonth(bytes: bytes, identity: identity, view: view,
                                                 hasConflicts: entry.hasConflicts, lastReadHeads: entry.heads))
        return view
    }

    /// Keeps `view` for the next mount when the document is exactly what its file holds.
    func storeInViewCache(_ view: MonthView, of loaded: LoadedDocument) {
        guard let cache = viewCache, let bytes = loaded.savedBytes, !bytes.isEmpty,
              loaded.document.changeCount == loaded.savedChangeCount, !loaded.document.hasPendingChanges else { return }
        let records = zip(view.files, view.startTimes).map { file, start in
            MonthViewCache.Entry.Record(id: file.id, name: file.name, startTime: start, contents: file.contents)
        }
        let entry = MonthViewCache.Entry(records: records, hasConflicts: Self.hasConflicts(in: loaded.document), heads: loaded.document.heads)
        cache.store(entry, for: cache.key(ofDocument: bytes))
    }
}
