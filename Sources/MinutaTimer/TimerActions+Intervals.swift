import MinutaStore

/// Intervals as Timewarrior keeps them (SPEC 10): overlaps refused or adjusted, `track`, `cancel`,
/// `annotate`.
extension TimerActions {
    /// The records of the store whose time overlaps `start..<end` (a running one counts up to `now`,
    /// and only when `includesRunning`; one of no length never), each once, earliest first.
    public func overlapping(start: Int64, end: Int64, now: Int64, includesRunning: Bool) throws(TimerError) -> [TimerRecord] {
        let zone = backend.timeZone
        guard let first = zone.month(ofMilliseconds: start), let last = zone.month(ofMilliseconds: end) else { return [] }
        let low = first.previous ?? first
        let high = last.next ?? last
        let months = try backend.months().filter { $0 >= low && $0 <= high }
        var seen = Set<RecordID>()
        return try backend.records(in: months).filter { record in
            guard let begun = record.startTime, includesRunning || !record.isRunning else { return false }
            // A record of no length covers no time: it overlaps nothing.
            guard begun < end && record.end(now: now) > start && record.end(now: now) > begun else { return false }
            guard let id = record.id else { return true }
            return seen.insert(RecordID(id)).inserted
        }.sorted { ($0.startTime ?? 0) < ($1.startTime ?? 0) }
    }

    /// Refuses `start..<end` when it overlaps records, naming them; with `adjusting`, trims them to make
    /// room as `timew :adjust` does: a record that starts before ends at `start`, one that ends after
    /// starts at `end`, one around the interval is split in two, one inside it is removed. Returns a
    /// line for each record changed.
    public func makeRoom(
        start: Int64, end: Int64, now: Int64, includesRunning: Bool, adjusting: Bool
    ) throws(TimerError) -> [String] {
        let others = try overlapping(start: start, end: end, now: now, includesRunning: includesRunning)
        guard !others.isEmpty else { return [] }
        guard adjusting else {
            throw .overlaps(interval: local(start) + " to " + (end == now ? "now" : local(end, today: start)),
                            records: others.prefix(5).map { $0.named(by: self, now: now) } + (others.count > 5 ? ["\(others.count - 5) more"] : []))
        }
        var lines: [String] = []
        for other in others {
            guard let begun = other.startTime else { continue }
            let ends = other.end(now: now)
            let name = other.named(by: self, now: now)
            let startText = JSONValue.string(ISO8601.string(milliseconds: start))
            let endText = JSONValue.string(ISO8601.string(milliseconds: end))
            if begun < start && ends > end {
                try write(other.setting([(key: RecordField.endTime.key, value: startText)]), over: other)
                var tail: [(key: String, value: JSONValue?)] = [(key: RecordField.id.key, value: nil), (key: RecordField.startTime.key, value: endText)]
                if !other.isRunning { tail.append((key: RecordField.endTime.key, value: .string(ISO8601.string(milliseconds: ends)))) }
                guard let month = backend.timeZone.month(ofMilliseconds: end) else { throw .unreadableInstant(String(end)) }
                _ = try backend.create(other.setting(tail), in: month)
                lines.append("adjusted \(name): split around the new interval, now ending at \(local(start)) and again from \(local(end))")
            } else if begun < start {
                try write(other.setting([(key: RecordField.endTime.key, value: startText)]), over: other)
                lines.append("adjusted \(name): now ends at \(local(start))")
            } else if ends > end {
                try write(other.setting([(key: RecordField.startTime.key, value: endText)]), over: other)
                lines.append("adjusted \(name): now starts at \(local(end))")
            } else {
                try editingBackend().remove(named: try currentName(of: other), in: other.month)
                lines.append("adjusted \(name): removed, it lay inside the new interval")
            }
        }
        return lines
    }

    /// The outcome of `track`.
    public struct Tracked: Sendable {
        public var id: String
        public var month: Month
        /// What `--adjust` changed, a line each.
        public var adjustments: [String]
    }

    /// Records the past interval `start..<end` (SPEC 10 `track`), also while a timer runs; an overlap
    /// with another record is refused unless `adjusting`.
    public func track(start: Int64, end: Int64, tagID: String?, comment: String?, adjusting: Bool, now: Int64) throws(TimerError) -> Tracked {
        guard end > start else { throw .endNotAfterStart(start: local(start), end: local(end, today: start)) }
        guard end <= now else { throw .instantInFuture(local(end)) }
        let adjustments = try makeRoom(start: start, end: end, now: now, includesRunning: true, adjusting: adjusting)
        guard let month = backend.timeZone.month(ofMilliseconds: start) else { throw .unreadableInstant(String(start)) }
        var members: [(key: String, value: JSONValue)] = [
            (RecordField.startTime.key, .string(ISO8601.string(milliseconds: start))), (RecordField.endTime.key, .string(ISO8601.string(milliseconds: end))),
        ]
        if let tagID { members.append((RecordField.tagId.key, .string(tagID))) }
        if let comment { members.append((RecordField.comment.key, .string(comment))) }
        members.append((RecordField.images.key, .array([])))
        let id = try backend.create(JSONWriter.pretty(.object(members)), in: month)
        return Tracked(id: id, month: month, adjustments: adjustments)
    }

    /// Removes a running timer (SPEC 10 `cancel`): the one with `id`, else the only one running.
    public func cancel(id: String?, now: Int64) throws(TimerError) -> TimerRecord {
        let place = backend.placeDescription
        let timer: TimerRecord
        if let id {
            let all = TimerActions(backend: backend, searchesAllMonths: true)
            guard let found = try all.running(now: now).first(where: { $0.id.map(RecordID.init) == RecordID(id) }) else {
                throw .noSuchTimer(id, place: place)
            }
            timer = found
        } else {
            let timers = try running(now: now)
            guard let only = timers.first else { throw .noTimerRunning(place) }
            guard timers.count == 1 else { throw .severalRunning(timers.map { ($0.id ?? "?") + " " + $0.named(by: self, now: now) }) }
            timer = only
        }
        try editingBackend().remove(named: try currentName(of: timer), in: timer.month)
        return timer
    }

    /// Sets the comment of the newest running timer, else of the record that started last
    /// (SPEC 10 `annotate`); returns the record as it was.
    public func annotate(_ text: String, now: Int64) throws(TimerError) -> TimerRecord {
        var chosen = try running(now: now).last
        if chosen == nil {
            chosen = try backend.records(in: searchedMonths(now: now)).filter { $0.startTime != nil }.max { ($0.startTime ?? 0) < ($1.startTime ?? 0) }
        }
        if chosen == nil {
            chosen = try backend.records(in: backend.months())
                .filter { $0.startTime != nil }.max { ($0.startTime ?? 0) < ($1.startTime ?? 0) }
        }
        guard let record = chosen else { throw .noRecord(backend.placeDescription) }
        try write(record.setting([(key: "comment", value: .string(text))]), over: record)
        return record
    }

    /// The backend, as one that can remove records and save tags.
    func editingBackend() throws(TimerError) -> any TimerEditingBackend {
        guard let editing = backend as? any TimerEditingBackend else {
            throw .storeFailed(file: backend.placeDescription, reason: "records cannot be removed here")
        }
        return editing
    }

    /// The name `timer`'s file has now (found again by its id: a save may have renamed it).
    func currentName(of timer: TimerRecord) throws(TimerError) -> String {
        guard let id = timer.id else { return timer.fileName }
        return try backend.records(in: [timer.month]).first { $0.id.map(RecordID.init) == RecordID(id) }?.fileName ?? timer.fileName
    }
}
