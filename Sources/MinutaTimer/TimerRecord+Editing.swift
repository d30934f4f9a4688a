import MinutaStore

extension TimerRecord {
    /// The record's JSON with each key of `changes` set (or removed, for nil), every other key as it was.
    public func setting(_ changes: [(key: String, value: JSONValue?)]) -> [UInt8] {
        guard case .object(var members) = json else { return JSONWriter.pretty(json) }
        for (key, value) in changes {
            let index = members.firstIndex { $0.key == key }
            switch (index, value) {
            case let (index?, value?): members[index].value = value
            case let (index?, nil): members.remove(at: index)
            case let (nil, value?): members.append((key: key, value: value))
            case (nil, nil): break
            }
        }
        return JSONWriter.pretty(.object(members))
    }

    /// The record's JSON without its `id`: a new record with the same values.
    public var copiedWithoutID: [UInt8] { setting([(key: "id", value: nil)]) }

    /// When the record ends: its end, or `now` for a running timer.
    public func end(now: Int64) -> Int64 { endTime ?? now }

    /// `2024/11/2024-11-22_090200.json (2024-11-22 09:02 to 10:30)`, for messages that name a record.
    public func named(by actions: TimerActions, now: Int64) -> String {
        let start = startTime.map { actions.local($0) } ?? "no start"
        guard let endTime else { return month.yearSlashMonth + "/" + fileName + " (running since " + start + ")" }
        return month.yearSlashMonth + "/" + fileName + " (" + start + " to " + actions.local(endTime, today: startTime) + ")"
    }
}
