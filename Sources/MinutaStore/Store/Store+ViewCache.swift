import AutomergeKit

/// The month views kept between mounts (`Backing/MonthViewCache.swift`): a month whose file
/// has a view in the cache is listed and read from it, parked, without decoding the document.
extension Store {
    /// The month's view from the cache, the month parked with it; nil when the cache has none for the
    /// file as it is, or when one of its records may be held by another month's document (then the
    /// document decides which copy is shown, `Store+DuplicateRecords.swift`).
    func cachedMonthView(_ month: Month, in state: inout State) -> MonthView? {
        guard let cached = cachedEntry(of: month) else { return nil }
        return installCachedView(month, cached, in: &state)
    }

    /// The cache's entry for the month's file as it is, with the file's bytes and identity: the part of
    /// ``cachedMonthView(_:in:)`` that reads files, done without `state` by readers and the prefetcher.
    func cachedEntry(of month: Month) -> (bytes: [UInt8], identity: BackingFiles.Identity, entry: MonthViewCache.Entry)? {
        // A month read merged with waiting conflict copies is not what its file holds.
        guard let cache = viewCache, !unreadable.isKnown(month.documentPath), !hasWaitingCopies(month.documentPath),
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
        let entry = MonthViewCache.Entry(records: records, hasConflicts: Self.hasConflicts(in: loaded.document), heads: loaded.document.heads)
        state.pendingCacheWrites.append((entry, cache.key(ofDocument: bytes)))
    }

    /// Two sample records rendered with this build's `RecordView`, `JSONWriter` and `RecordNaming`: part
    /// of every cache key, so a build that renders records differently finds none of an older build's
    /// entries even if nobody bumped `MonthViewCache.formatVersion`.
    static func rendererFingerprint(timeZone: StoreTimeZone) -> [UInt8] {
        var document = Document(actor: ActorID(bytes: [UInt8](repeating: 0x5A, count: 16)))
        var output: [UInt8] = []
        do {
            let first = try document.putObject(.map, forKey: "0A1B2C3D-4E5F-4A6B-8C7D-8E9F0A1B2C3D")
            try document.put(.timestamp(1_709_251_200_123), forKey: "startTime", in: first)
            try document.put(.timestamp(1_709_254_800_000), forKey: "endTime", in: first)
            try document.put(.string("F0E1D2C3-B4A5-4968-8776-655443322110"), forKey: "tagId", in: first)
            let comment = try document.putObject(.text, forKey: "comment", in: first)
            try document.spliceText(comment, at: 0, delete: 0, insert: "Zürich \"quoted\"\n\u{1F600} \\ tab\t")
            let images = try document.putObject(.list, forKey: "images", in: first)
            try document.insert(.string("0A1B2C3D-4E5F-4A6B-8C7D-8E9F0A1B2C3D_0.jpg"), at: 0, in: images)
            try document.put(.f64(1.5), forKey: "extra", in: first)
            let second = try document.putObject(.map, forKey: "1A1B2C3D-4E5F-4A6B-8C7D-8E9F0A1B2C3D")
            try document.put(.int(1_709_251_200_123), forKey: "startTime", in: second)
            try document.put(.null, forKey: "endTime", in: second)
            try document.put(.string("plain comment"), forKey: "comment", in: second)
            let records = [("0A1B2C3D-4E5F-4A6B-8C7D-8E9F0A1B2C3D", first), ("1A1B2C3D-4E5F-4A6B-8C7D-8E9F0A1B2C3D", second)]
            for (id, record) in records { output += JSONWriter.pretty(RecordView.json(id: id, record: record, in: document)) }
            let names = RecordNaming.names(for: records.map { ($0.0, RecordView.startTime(of: $0.1, in: document)) }, timeZone: timeZone)
            output += Array(names.joined(separator: "\n").utf8)
        } catch {
            // Cannot happen with these fixed values; an empty fingerprint still keys by the version.
            return []
        }
        return output
    }
}
