import AutomergeKit

/// The month views kept between mounts (`Backing/MonthViewCache.swift`): a month whose file
/// has a view in the cache is listed and read from it, parked, without decoding the document.
extension MonthReplicas {
    /// The month's view from the cache, the month parked with it; nil when the cache has none for the
    /// file as it is, or when one of its records may be held by another month's document (then the
    /// document decides which copy is shown, `MonthReplicas+RecordHolders.swift`).
    func cachedMonthView(_ month: Month, in state: inout State) -> MonthView? {
        guard let cached = cachedEntry(of: month) else { return nil }
        return installCachedView(month, cached, in: &state)
    }

    /// The cache's entry for the month's file as it is, with the file's bytes and identity: the part of
    /// ``cachedMonthView(_:in:)`` that reads files, done without `state` by readers and the prefetcher.
    func cachedEntry(of month: Month) -> (bytes: [UInt8], identity: BackingFiles.Identity, entry: MonthViewCache.Entry)? {
        // A month read merged with waiting conflict copies is not what its file holds.
        guard let cache = viewCache, !unreadable.isKnown(month.documentPath), !waitingCopyReader.hasCopies(month.documentPath),
              let (bytes, identity) = try? BackingFiles.readWithIdentity(absolute(month.documentPath)), !bytes.isEmpty,
              let entry = cache.entry(for: cache.key(ofDocument: bytes)) else { return nil }
        return (bytes, identity, entry)
    }

    /// The month parked with a cached entry's view; nil when one of its records may be held by another
    /// month's document.
    func installCachedView(
        _ month: Month, _ cached: (bytes: [UInt8], identity: BackingFiles.Identity, entry: MonthViewCache.Entry), in state: inout State
    ) -> MonthView? {
        let (bytes, identity, entry) = cached
        // Kept current without this lock (`prepareToRender`, the synchronization passes); built here only
        // when nothing has built it.
        if state.recordHolders.lastUpdate == nil { refreshRecordHolders(in: &state, maximumAge: .seconds(1)) }
        for record in entry.records where !state.recordHolders.otherHolders(of: RecordID(record.id), besides: month).isEmpty {
            return nil
        }
        state.hiddenCopies.forget(in: month)
        let files = entry.records.map { record in
            RecordFile(name: record.name, id: record.id, contents: record.contents,
                       modificationTime: state.recentChanges.changeTime(of: RecordID(record.id)) ?? identity.modificationSeconds)
        }
        let view = MonthView(files: files, startTimes: entry.records.map(\.startTime))
        state.months.park(month, as: ParkedMonth(bytes: bytes, identity: identity, view: view,
                                                 hasConflicts: entry.hasConflicts, lastReadHeads: entry.heads))
        return view
    }

    /// Keeps `view` for the next mount when the document is exactly what its file holds: the entry is
    /// made here and written once `state` is released (`withState`).
    func storeInViewCache(_ view: MonthView, of loaded: LoadedDocument, state: inout State) {
        guard let cache = viewCache, let bytes = loaded.savedBytes, !bytes.isEmpty,
              loaded.document.changeCount == loaded.savedChangeCount, !loaded.document.hasPendingChanges else { return }
        let records = zip(view.files, view.startTimes).map { file, start in
            MonthViewCache.Entry.Record(id: file.id, name: file.name, startTime: start, contents: file.contents)
        }
        let entry = MonthViewCache.Entry(records: records, hasConflicts: ParkedMonth.hasConflicts(in: loaded.document), heads: loaded.document.heads)
        state.pendingCacheWrites.append((entry, cache.key(ofDocument: bytes)))
    }
}
