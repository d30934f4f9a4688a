import AutomergeKit

/// How a month's view is rendered from its document: the record files, named from their starts, with
/// the copies another month shows left out. Pure: it takes no lock and does no I/O, so
/// `MonthReplicas` runs it without `state` (``MonthReplicas/renderWithoutState(_:)``) and, as the
/// bounded exception, under it (``MonthReplicas/monthView(_:in:)``); what a copy held twice needs of
/// the other months comes through `otherCopy`.
struct MonthRendering {
    /// Where a record's copy in this month stands against copies other months hold (SPEC section 4).
    enum CopyPlace: Sendable {
        /// Shown here.
        case shownHere
        /// Left out: the month that shows another copy of it.
        case shownIn(Month)
        /// Cannot be told with what the renderer has (another month's document is not at hand).
        case unknown
    }

    /// A rendered view and the copies it leaves out.
    struct Rendered: Sendable {
        let view: MonthView
        /// Records of the document left out because another month shows them: (id, that month); nil when
        /// an earlier view was brought up to date after edits of this store (the copies left out are as they were).
        let hidden: [(id: String, shownIn: Month)]?
        /// Whether the view shows exactly what the document holds, rendered with no earlier view and
        /// no copy left out: what the view cache keeps for the next mount.
        let showsWholeDocument: Bool
    }

    /// Another month's document as a renderer has it.
    enum OtherDocument {
        case document(Document)
        /// The month has no document (or one that does not load): it holds no copy.
        case absent
        /// Not at hand: the renderer cannot look into it.
        case notAtHand
    }

    let document: Document
    let reusableView: (view: MonthView, changedRecords: Set<RecordID>)?
    /// The time files of records this store did not change lately show (the document file's).
    let fileTime: Int
    let recentChanges: RecentRecordChanges
    let timeZone: StoreTimeZone

    /// The view, or nil when `otherCopy` could not place a record (`.unknown`).
    func render<E: Error>(
        otherCopy: (_ record: (id: String, object: ObjectID, startTime: Int64?)) throws(E) -> CopyPlace
    ) throws(E) -> Rendered? {
        if let reusableView,
           let view = reusableView.view.edited(changedRecords: reusableView.changedRecords, in: document, fileTime: fileTime,
                                               recentChanges: recentChanges) {
            return Rendered(view: view, hidden: nil, showsWholeDocument: false)
        }
        var records: [(id: String, object: ObjectID, startTime: Int64?)] = []
        var hidden: [(id: String, shownIn: Month)] = []
        for key in document.keys(of: .root) {
            guard let object = RecordView.object(key, in: document) else { continue }
            let record = (id: key, object: object, startTime: RecordView.startTime(of: object, in: document))
            switch try otherCopy(record) {
            case .shownHere: records.append(record)
            case .shownIn(let month): hidden.append((key, month))
            case .unknown: return nil
            }
        }
        let names = RecordNaming.names(for: records.map { ($0.id, $0.startTime) }, timeZone: timeZone)
        var files: [(file: RecordFile, startTime: Int64?)] = []
        files.reserveCapacity(records.count)
        for (record, name) in zip(records, names) {
            let key = RecordID(record.id)
            let contents: [UInt8]
            if let reusableView, !reusableView.changedRecords.contains(key), let index = reusableView.view.indexByID[key],
               reusableView.view.files[index].id == record.id {
                contents = reusableView.view.files[index].contents
            } else {
                contents = JSONWriter.pretty(RecordView.json(id: record.id, record: record.object, in: document))
            }
            let changed = recentChanges.changeTime(of: key) ?? fileTime
            files.append((RecordFile(name: name, id: record.id, contents: contents, modificationTime: changed), record.startTime))
        }
        files.sort { $0.file.name.utf8.lexicographicallyPrecedes($1.file.name.utf8) }
        return Rendered(view: MonthView(files: files.map(\.file), startTimes: files.map(\.startTime)), hidden: hidden,
                        showsWholeDocument: reusableView == nil && hidden.isEmpty)
    }

    /// Where `record`, a record of `month`'s document, is shown (SPEC section 4):
    /// - a copy whose start falls in another month whose document holds the record too (a move
    ///   synced in one document and not yet in the other): shown there;
    /// - a copy whose start falls in this month while another month's document holds a copy whose
    ///   start falls in that month (another device's move, half delivered): the copy with the later
    ///   last change is shown (`Document.lastChangeTime(of:comparable:)`, seconds and milliseconds
    ///   told apart as the history does), on a tie the one in the later month.
    ///   Every device and every order of listing picks the same copy.
    ///
    /// `holders` is the holder index (nil: none is kept, every home month is looked into), `other` finds
    /// the other months' documents.
    func placeCopy<E: Error>(
        of record: (id: String, object: ObjectID, startTime: Int64?), in month: Month, holders: RecordHolderIndex?,
        other: (Month) throws(E) -> OtherDocument
    ) throws(E) -> CopyPlace {
        guard let start = record.startTime, let home = timeZone.month(ofMilliseconds: start) else { return .shownHere }
        let id = RecordID(record.id)
        if home != month {
            // The index has read the home month's file and the record is not in it: nothing to look into.
            if let holders, !holders.mayHold(id, in: home) { return .shownHere }
            switch try other(home) {
            case .notAtHand: return .unknown
            case .absent: return .shownHere
            case .document(let homeDocument): return id.key(among: homeDocument.keys(of: .root)) != nil ? .shownIn(home) : .shownHere
            }
        }
        for otherMonth in holders?.otherHolders(of: id, besides: month) ?? [] {
            let otherDocument: Document
            switch try other(otherMonth) {
            case .notAtHand: return .unknown
            case .absent: continue
            case .document(let document): otherDocument = document
            }
            guard let key = id.key(among: otherDocument.keys(of: .root)),
                  let object = RecordView.object(key, in: otherDocument),
                  let otherStart = RecordView.startTime(of: object, in: otherDocument),
                  timeZone.month(ofMilliseconds: otherStart) == otherMonth else { continue }
            let ours = document.lastChangeTime(of: record.object, comparable: EffectiveTimes.milliseconds(ofChangeTime:)) ?? .min
            let theirs = otherDocument.lastChangeTime(of: object, comparable: EffectiveTimes.milliseconds(ofChangeTime:)) ?? .min
            if theirs > ours || (theirs == ours && otherMonth > month) { return .shownIn(otherMonth) }
        }
        return .shownHere
    }
}
