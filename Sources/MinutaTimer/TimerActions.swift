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

    /// The running timers, however old and wherever held, oldest start first: the months the
    /// backend's running-timer index names (`RunningTimerIndex`), else the recent months.
    public func running(now: Int64) throws(TimerError) -> [TimerRecord] {
        var found: [TimerRecord] = []
        if let indexed = try backend.runningTimerFiles(everyMonth: searchesAllMonths) {
            // Only the files the index names; a month where one is gone (renamed since) is read whole.
            for (month, names) in indexed {
                let files = try backend.recordFiles(named: names, in: month)
                if files.count == names.count {
                    found += files.compactMap { TimerRecord(month: month, fileName: $0.name, bytes: $0.bytes) }
                } else {
                    found += try backend.records(in: [month])
                }
            }
        } else {
            found = try backend.records(in: searchedMonths(now: now))
        }
        return found.filter(\.isRunning).sorted { ($0.startTime ?? 0) < ($1.startTime ?? 0) }
    }

    /// Whether `timer` has run for less than a day at `now`: the ones `stop` and `start` stop without
    /// being told when (an older one is almost always forgotten; stopping it now would make a record
    /// of days or years).
    public static func isRecent(_ timer: TimerRecord, now: Int64) -> Bool {
        now - (timer.startTime ?? now) <= TimerDisplay.longRunning
    }

    /// How long a timer has run: `H:MM` under a day, else `3 d 4 h`, or `3 y 2 d` from a year (of 365 days).
    public static func age(_ milliseconds: Int64) -> String {
        let days = max(0, milliseconds) / 86_400_000
        if days >= 365 { return "\(days / 365) y \(days % 365) d" }
        if days >= 1 { return "\(days) d \((max(0, milliseconds) % 86_400_000) / 3_600_000) h" }
        return elapsed(milliseconds)
    }

    /// A timer running for more than a day, named with its age and how to end it.
    public func longRunningNote(_ timer: TimerRecord, now: Int64) -> String {
        let id = timer.id ?? timer.fileName
        return "a timer started \(local(timer.startTime ?? now)) is running for \(Self.age(now - (timer.startTime ?? now))) (id \(id)); "
            + "it is not stopped now, which would make a record that long: give when it ended with "
            + "`minutafs stop --id \(id) --at TIME`, or remove it with `minutafs cancel --id \(id)`"
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
        /// Timers running for more than a day, left running (see ``isRecent(_:now:)``).
        public var leftRunning: [TimerRecord] = []
    }

    /// The outcome of `stop`.
    public struct Stopped: Sendable {
        public var stopped: [TimerRecord]
        /// Timers running for more than a day, left running because no `--at` said when they ended.
        public var leftRunning: [TimerRecord]
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
        let running = keepsRunning ? [] : try running(now: now)
        let toStop = running.filter { Self.isRecent($0, now: now) }
        for timer in toStop {
            if let begun = timer.startTime, begun > start {
                throw .stopBeforeStart(stop: local(start), start: local(begun))
            }
        }
        guard let month = backend.timeZone.month(ofMilliseconds: start) else { throw .unreadableInstant(String(start)) }
        let id = try backend.create(TimerRecord.newTimer(start: start, tagID: chosenID, comment: comment), in: month)
        for timer in toStop { try write(timer.stopped(at: start), over: timer) }
        return Started(id: id, start: start, month: month, stopped: toStop, leftRunning: running.filter { !Self.isRecent($0, now: now) })
    }

    /// Ends the running timers at `end`: those running for less than a day, or, when `end` was given
    /// (`whenGiven`), every one; only the one `id` names when it is given.
    /// - Throws: ``TimerError/noTimerRunning(_:)`` when none runs (or none has that id);
    ///   ``TimerError/onlyLongRunning(_:)`` when only timers older than a day run and no end was given;
    ///   ``TimerError/stopBeforeStart(stop:start:)`` when `end` is before a timer's start (nothing is
    ///   written then).
    public func stop(at end: Int64, now: Int64, whenGiven: Bool = false, id: String? = nil) throws(TimerError) -> Stopped {
        var timers = try running(now: now)
        if let id {
            timers = timers.filter { timer in timer.id.map { RecordID($0) == RecordID(id) || $0.lowercased().hasPrefix(id.lowercased()) } ?? false }
        }
        guard !timers.isEmpty else { throw .noTimerRunning(backend.placeDescription + (id.map { " with id " + $0 } ?? "")) }
        let chosen = whenGiven ? timers : timers.filter { Self.isRecent($0, now: now) }
        let left = whenGiven ? [] : timers.filter { !Self.isRecent($0, now: now) }
        guard !chosen.isEmpty else { throw .onlyLongRunning(left.map { longRunningNote($0, now: now) }) }
        for timer in chosen {
            if let begun = timer.startTime, begun > end { throw .stopBeforeStart(stop: local(end), start: local(begun)) }
        }
        for timer in chosen { try write(timer.stopped(at: end), over: timer) }
        return Stopped(stopped: chosen, leftRunning: left)
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

    /// `HH:MM` (today) or `YYYY-MM-DD HH:MM` in the store's time zone, `HH:MM +02:00` in the hour clocks repeat.
    public func local(_ milliseconds: Int64, today now: Int64? = nil) -> String {
        let zone = backend.timeZone
        let c = ISO8601.components(milliseconds: milliseconds, offsetSeconds: zone.offsetSeconds(atMilliseconds: milliseconds))
        // In the hour clocks repeat when they go back, the offset says which of the two it is.
        let time = Self.pad(c.hour) + ":" + Self.pad(c.minute)
            + zone.offsetSuffixWhenRepeated(atMilliseconds: milliseconds)
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
