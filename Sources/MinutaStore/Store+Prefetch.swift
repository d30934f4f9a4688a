import AutomergeKit

/// Loading months ahead of a reader (issue 16): `grep -r`, `find` and backups list a year and then
/// read its months one after the other. `MonthPrefetcher` calls ``prefetch(_:)`` on another thread
/// for each month of a year folder when it is listed, so the reader finds them rendered.
extension Store {
    /// Loads and renders `month` unless it is held already. The document is decoded without the
    /// store's lock (the costly part), so readers of other months are not held up; it is taken only
    /// if the file is still the one decoded and nobody loaded the month meanwhile.
    func prefetch(_ month: Month) {
        let needed = state.withLock { (state: inout State) -> Bool in
            guard state.months[month] == nil, state.months.parked[month] == nil,
                  state.unreadable[month.documentPath] == nil else { return false }
            // A view in the cache costs a read and a hash: taken here, nothing to decode.
            return cachedMonthView(month, in: &state) == nil
        }
        guard needed, case .loaded(let document, let identity, let bytes) = readDocumentFile(month.documentPath) else { return }
        state.withLock { (state: inout State) in
            guard state.months[month] == nil, state.months.parked[month] == nil,
                  BackingFiles.status(absolute(month.documentPath))?.identity == identity else { return }
            clearUnreadable(month.documentPath, state: &state)
            state.months[month] = LoadedDocument(read: document, identity: identity, bytes: bytes)
            state.months.markUsed(month)
            parkLeastRecentlyUsedMonths(in: &state, keeping: month)
            _ = try? monthView(month, in: &state)
        }
    }
}
