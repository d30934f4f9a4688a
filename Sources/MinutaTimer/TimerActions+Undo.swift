import MinutaStore

/// `minutafs undo` (SPEC 10): the changes of the last terminal command, found in the documents'
/// history between the heads it recorded before and after it, set back by a new change every device
/// gets (as `minutafs restore` does). A record or tag changed again since (by a phone, an edit) is
/// left as it is, and said.
extension TimerActions {
    /// What `undo` did: a line for each record or tag set back, and one for each left as it is.
    public struct Undone: Sendable {
        public var lines: [String] = []
        public var left: [String] = []
    }

    /// Sets back the changes between each document's `before` and `after` heads: records first, then
    /// tags (a tag the command created is removed once the records that name it are).
    public func undo(_ documents: [DocumentHeads], now: Int64) throws(TimerError) -> Undone {
        guard let history = backend as? StoreTimerBackend else {
            throw .storeFailed(file: backend.placeDescription, reason: "undo is carried out by the store itself or by its mount")
        }
        var undone = Undone()
        for document in documents where document.month != nil {
            guard let month = document.monthValue else { continue }
            for change in try history.changedObjects(in: document) {
                try undo(change, in: month, now: now, into: &undone)
            }
        }
        for document in documents where document.month == nil {
            for change in try history.changedObjects(in: document) {
                try undoTag(change, into: &undone)
            }
        }
        return undone
    }

    /// Sets one record back to `change.before`: removed when the command created it.
    private func undo(_ change: HistoryChange, in month: Month, now: Int64, into undone: inout Undone) throws(TimerError) {
        let editing = try editingBackend()
        let current = try find(change.id, near: month)
        if change.now == change.before, current == nil || change.before != nil {
            undone.lines.append(change.before == nil ? "record \(change.id) is gone already" : "\(name(change.before, current, month, now)) is as before already")
            return
        }
        guard change.isUnchangedSince, change.now != nil || current == nil else {
            undone.left.append("left \(name(change.now, current, month, now)) as it is: " + Self.changedSince(change, movedTo: current))
            return
        }
        guard let before = change.before else {
            guard let current else {
                undone.lines.append("record \(change.id) is gone already")
                return
            }
            try editing.remove(named: current.fileName, in: current.month)
            undone.lines.append("removed \(current.named(by: self, now: now))")
            return
        }
        // Written to the file that shows it now; one removed since comes back with its id (the store
        // files it by its start).
        let bytes = JSONWriter.pretty(before)
        try editing.put(bytes, named: current?.fileName ?? RecordID(change.id).text + ".json", in: current?.month ?? month)
        let written = try find(change.id, near: month)
        undone.lines.append("set back \(name(before, written, month, now))")
    }

    /// How a record is named in the lines: its file now, else from its JSON.
    private func name(_ json: JSONValue?, _ current: TimerRecord?, _ month: Month, _ now: Int64) -> String {
        if let current { return current.named(by: self, now: now) }
        let id = json.flatMap { value -> String? in if case .string(let id)? = value["id"] { return id } else { return nil } } ?? "?"
        return json.flatMap { TimerRecord(month: month, fileName: id + ".json", bytes: JSONWriter.pretty($0)) }?.named(by: self, now: now)
            ?? "record \(id)"
    }

    /// Why a record or tag is left: what changed since the command (each field), and how to set it back by hand.
    static func changedSince(_ change: HistoryChange, movedTo current: TimerRecord? = nil) -> String {
        let what: String
        if let now = change.now, let after = change.after, change.gainedConcurrentValues, now == after {
            what = "given a concurrent value since that command (listed in MOUNT/.minutafs/conflicts)"
        } else if let now = change.now, let after = change.after {
            what = "changed since that command (" + fieldsDiffering(now, after).joined(separator: ", ") + ")"
        } else if change.now != nil || current != nil {
            what = current.map { "moved to \($0.month.yearSlashMonth) since that command" } ?? "created again since that command"
        } else {
            what = "removed since that command"
        }
        return what + " by another device or an edit; its earlier values are in MOUNT/.minutafs/history (see `minutafs restore`)"
    }

    /// The keys whose values differ between two JSON objects, in the order they appear.
    static func fieldsDiffering(_ left: JSONValue, _ right: JSONValue) -> [String] {
        guard case .object(let leftMembers) = left, case .object(let rightMembers) = right else { return ["its value"] }
        var keys: [String] = []
        for key in leftMembers.map(\.key) + rightMembers.map(\.key) where !keys.contains(key) && left[key] != right[key] {
            keys.append(key)
        }
        return keys
    }

    /// Sets one tag back to `change.before` in `tags.json`: removed when the command created it.
    private func undoTag(_ change: HistoryChange, into undone: inout Undone) throws(TimerError) {
        let name = [change.now, change.after, change.before].lazy.compactMap { value -> String? in
            if case .string(let name)? = value?["name"] { return name } else { return nil }
        }.first.map(TerminalText.escaped) ?? change.id
        guard change.now != change.before else {
            undone.lines.append(change.before == nil ? "tag \(name) is gone already" : "tag \(name) is as before already")
            return
        }
        guard change.isUnchangedSince else {
            undone.left.append("left tag \(name) as it is: " + Self.changedSince(change))
            return
        }
        let bytes = try backend.tagsJSON()
        guard let parsed = try? JSONParser.parse(bytes), case .array(var entries)? = parsed["tags"] else {
            throw .storeFailed(file: "tags.json", reason: "not a tags list; the tag \(name) was left")
        }
        let index = entries.firstIndex { entry in
            guard case .string(let tagID)? = entry["id"] else { return false }
            return RecordID(tagID) == RecordID(change.id)
        }
        switch (change.before, index) {
        case (nil, let index?): entries.remove(at: index)
        case (let before?, let index?): entries[index] = before
        case (let before?, nil): entries.append(before)
        case (nil, nil):
            undone.lines.append("tag \(name) is gone already")
            return
        }
        try editingBackend().writeTags(JSONWriter.pretty(.object([("tags", .array(entries))])))
        undone.lines.append(change.before == nil ? "removed tag \(name)" : "set back tag \(name)")
    }

    /// The record with `id`, in `month` or a month beside it (a changed start may have moved it).
    func find(_ id: String, near month: Month) throws(TimerError) -> TimerRecord? {
        let existing = try backend.months()
        let months = [month, month.previous, month.next].compactMap { $0 }.filter { existing.contains($0) }
        return try backend.records(in: months).first { $0.id.map(RecordID.init) == RecordID(id) }
    }
}
