import MinutaStore

/// What `minutafs start`, `stop`, `now` and `continue` do (SPEC 10), over either backend.
public struct TimerActions: Sendable {
    public let backend: any TimerBackend
    /// Whether every month is searched for running timers, not only the recent ones.
    public let searchesAllMonths: Bool

    public init(backend: any TimerBackend, searchesAllMonths: Bool = false) {
        self.backend = backend
        self.searchesAllMonths = searchesAllMonths
    }

    /// How far back running timers are looked for unless every month is asked for: a timer started
    /// within this many days is found in the (at most three) months they span.
    public static let recentDays: Int64 = 62

    /// The months searched at `now`: those with a folder from `recentDays` before now to a day after.
    public func searchedMonths(now: Int64) throws(TimerError) -> [Month] {
        let existing = try backend.months()
        guard !searchesAllMonths else { return existing }
        let zone = backend.timeZone
        guard let first = zone.month(ofMilliseconds: now - Self.recentDays * 86_400_000),
              let last = zone.month(ofMilliseconds: now + 86_400_000) else { return existing }
        return existing.filter { $0 >= first && $0 <= last }
    }

    /// The running timers, oldest start first.
    public func running(now: Int64) throws(TimerError) -> [TimerRecord] {
        try backend.records(in: searchedMonths(now: now)).filter(\.isRunning).sorted { ($0.startTime ?? 0) < ($1.startTime ?? 0) }
    }

    /// The tags, for names.
    public func tags() throws(TimerError) -> [TagSummary] {
        TagSummary.tags(inTagsJSON: try backend.tagsJSON())
    }

    /// The outcome of `start`.
    public struct Started: Sendable {
        public var id: String
        public var start: Int64
        public var month: Month
        /// Timers that ran and were stopped at `start`.
        public var stopped: [TimerRecord]
    }

    /// Starts a timer at `start` with the tag `tagQuery` names (name or id) and `comment`; running timers
    /// are stopped at the same instant unless `keepsRunning`. The new record is written first, so a
    /// failure never leaves no timer where one ran.
    /// `tagID` (`continue`) is used as it is, without looking it up.
    public func start(
        tag tagQuery: String?, tagID: String? = nil, comment: String?, at start: Int64, keepsRunning: Bool, now: Int64
    ) throws(TimerError) -> Started {
        var chosenID = tagID
        if chosenID == nil, let tagQuery { chosenID = try TagChoice.resolve(tagQuery, among: tags()).id }
        let toStop = keepsRunning ? [] : try running(now: now)
        for timer in toStop {
            if let begun = timer.startTime, begun > start {
                throw .stopBeforeStart(stop: local(start), start: local(begun))
            }
        }
        guard let month = backend.timeZone.month(ofMilliseconds: start) else { throw .unreadableInstant(String(start)) }
        let id = try backend.create(TimerRecord.newTimer(start: start, tagID: chosenID, comment: comment), in: month)
        for timer in toStop { try write(timer.stopped(at: start), over: timer) }
        return Started(id: id, start: start, month: month, stopped: toStop)
    }

    /// Ends every running timer at `end`.
    /// - Throws: ``TimerError/noTimerRunning(_:)`` when none runs; ``TimerError/stopBeforeStart(stop:start:)``
    ///   when `end` is before a running timer's start (nothing is written then).
    public func stop(at end: Int64, now: Int64) throws(TimerError) -> [TimerRecord] {
        let timers = try running(now: now)
        guard !timers.isEmpty else { throw .noTimerRunning(backend.placeDescription) }
        for timer in timers {
            if let begun = timer.startTime, begun > end { throw .stopBeforeStart(stop: local(end), start: local(begun)) }
        }
        for timer in timers { try write(timer.stopped(at: end), over: timer) }
        return timers
    }

    /// Saves `bytes` as the record `timer` was read from, under the name it has now: a record started in
    /// the same second as another is renamed when that one appears (`_<id prefix>`), so the name read
    /// may be gone; the record is found again by its id.
    func write(_ bytes: [UInt8], over timer: TimerRecord) throws(TimerError) {
        var name = timer.fileName
        if let id = timer.id, let current = try backend.records(in: [timer.month]).first(where: { $0.id.map(RecordID.init) == RecordID(id) }) {
            name = current.fileName
        }
        try backend.write(bytes, named: name, in: timer.month)
    }

    /// The timer that ended last (by its start), whose tag and comment `continue` starts again.
    public func lastStopped(now: Int64) throws(TimerError) -> TimerRecord? {
        try backend.records(in: searchedMonths(now: now)).filter { !$0.isRunning && $0.startTime != nil }
            .max { ($0.startTime ?? 0) < ($1.startTime ?? 0) }
    }

    /// `HH:MM` (today) or `YYYY-MM-DD HH:MM` in the store's time zone.
    public func local(_ milliseconds: Int64, today now: Int64? = nil) -> String {
        let zone = backend.timeZone
        let c = ISO8601.components(milliseconds: milliseconds, offsetSeconds: zone.offsetSeconds(atMilliseconds: milliseconds))
        let time = Self.pad(c.hour) + ":" + Self.pad(c.minute)
        if let now, HistoryInstant.dayName(ofMilliseconds: now, timeZone: zone) == HistoryInstant.dayName(ofMilliseconds: milliseconds, timeZone: zone) {
            return time
        }
        return HistoryInstant.dayName(ofMilliseconds: milliseconds, timeZone: zone) + " " + time
    }

    /// `H:MM` of a duration in milliseconds (whole minutes, never negative).
    public static func elapsed(_ milliseconds: Int64) -> String {
        let minutes = max(0, milliseconds) / 60_000
        return String(minutes / 60) + ":" + pad(Int(minutes % 60))
    }

    static func pad(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }
}
