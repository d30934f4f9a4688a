import AutomergeKit

/// One month as the store holds it: its document decoded (`LoadedDocument`: the document, the file's
/// identity and bytes as last read or written, its view kept with the version it was rendered from),
/// or parked to bound memory (`ParkedMonth`: the bytes, identity and view it was set aside with). Never
/// both: a month is the one or the other, and which one it is says how a read or a change reaches it.
enum MonthReplica: Sendable {
    case decoded(LoadedDocument)
    case parked(ParkedMonth)

    var decoded: LoadedDocument? {
        if case .decoded(let loaded) = self { return loaded }
        return nil
    }

    var parked: ParkedMonth? {
        if case .parked(let parked) = self { return parked }
        return nil
    }

    /// The month's current view: nil once its document changed since it was rendered, or when it was dropped.
    var view: MonthView? {
        switch self {
        case .decoded(let loaded): loaded.view
        case .parked(let parked): parked.view
        }
    }

    /// The file as last read or written.
    var identity: BackingFiles.Identity? {
        switch self {
        case .decoded(let loaded): loaded.identity
        case .parked(let parked): parked.identity
        }
    }

    /// The parked form of a decoded month with nothing unsaved: its edits not yet committed are
    /// committed at `commitTime` first; nil when it then has changes its file lacks (they would be lost),
    /// or has no file.
    static func parkedForm(of held: inout LoadedDocument, commitTime: Int64) -> ParkedMonth? {
        guard held.document.commit(time: commitTime) == nil, let bytes = held.savedBytes, held.identity != nil,
              held.document.changeCount == held.savedChangeCount, !held.document.hasPendingChanges else { return nil }
        return ParkedMonth(bytes: bytes, identity: held.identity, view: held.view,
                           hasConflicts: ParkedMonth.hasConflicts(in: held.document), lastReadHeads: held.lastReadHeads)
    }
}
