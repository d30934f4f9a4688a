import MinutaStore

/// `minutafs undo` (SPEC 10): the changes of the last terminal command set back, each as a new change
/// every device gets (as `minutafs restore` does), the last change first.
extension TimerActions {
    /// Sets back `changes`; returns a line for each.
    public func undo(_ changes: [TimerChange], now: Int64) throws(TimerError) -> [String] {
        let editing = try editingBackend()
        var lines: [String] = []
        for change in changes.reversed() {
            switch change {
            case let .createdRecord(id, month):
                guard let current = try find(id, near: month) else {
                    lines.append("record \(id) is gone already")
                    continue
                }
                try editing.remove(named: current.fileName, in: current.month)
                lines.append("removed \(current.named(by: self, now: now))")
            case .changedRecord(let before), .removedRecord(let before):
                let bytes = JSONWriter.pretty(before.json)
                if let id = before.id, let current = try find(id, near: before.month) {
                    try editing.put(bytes, named: current.fileName, in: current.month)
                } else {
                    try editing.put(bytes, named: before.fileName, in: before.month)
                }
                lines.append("set back \(before.named(by: self, now: now))")
            case let .createdTag(id, name):
                let bytes = try backend.tagsJSON()
                guard let parsed = try? JSONParser.parse(bytes), case .array(let entries)? = parsed["tags"] else {
                    throw .storeFailed(file: "tags.json", reason: "not a tags list; the tag \(TerminalText.quoted(name)) was left")
                }
                let kept = entries.filter { entry in
                    guard case .string(let tagID)? = entry["id"] else { return true }
                    return RecordID(tagID) != RecordID(id)
                }
                guard kept.count < entries.count else {
                    lines.append("tag \(TerminalText.escaped(name)) is gone already")
                    continue
                }
                try editing.writeTags(JSONWriter.pretty(.object([("tags", .array(kept))])))
                lines.append("removed tag \(TerminalText.escaped(name))")
            }
        }
        return lines
    }

    /// The record with `id`, in `month` or a month beside it (a changed start may have moved it).
    func find(_ id: String, near month: Month) throws(TimerError) -> TimerRecord? {
        let existing = try backend.months()
        let months = [month, month.previous, month.next].compactMap { $0 }.filter { existing.contains($0) }
        return try backend.records(in: months).first { $0.id.map(RecordID.init) == RecordID(id) }
    }
}
