import MinutaStore

/// A wall-clock time in the store's time zone and the instants it names: one on most days, none in the
/// hour skipped when clocks go forward, two in the hour repeated when they go back (SPEC 10: such a time
/// is refused with the valid choices, never moved in silence).
enum LocalTime {
    static let day: Int64 = 86_400_000

    /// The instants whose wall-clock time in `timeZone` is `local` (milliseconds as if it were UTC),
    /// earliest first.
    static func instants(ofLocal local: Int64, timeZone: StoreTimeZone) -> [Int64] {
        var found: [Int64] = []
        for offset in offsets(around: local, timeZone: timeZone) {
            let candidate = local - offset
            if offsetMilliseconds(at: candidate, timeZone) == offset, !found.contains(candidate) { found.append(candidate) }
        }
        return found.sorted()
    }

    /// The offsets in force a day before and a day after `local`.
    static func offsets(around local: Int64, timeZone: StoreTimeZone) -> [Int64] {
        [offsetMilliseconds(at: local - day, timeZone), offsetMilliseconds(at: local + day, timeZone)]
    }

    static func offsetMilliseconds(at instant: Int64, _ timeZone: StoreTimeZone) -> Int64 {
        Int64(timeZone.offsetSeconds(atMilliseconds: instant)) * 1000
    }

    /// The first instant, between `start` and `end`, at which the offset is no longer the one at `start`
    /// (a daylight-saving change lies between them).
    static func change(from start: Int64, to end: Int64, timeZone: StoreTimeZone) -> Int64 {
        let first = offsetMilliseconds(at: start, timeZone)
        var low = start
        var high = end
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if offsetMilliseconds(at: middle, timeZone) == first { low = middle } else { high = middle }
        }
        return high
    }

    /// `YYYY-MM-DDTHH:MM` of an instant in `timeZone`, with `+HH:MM` when `withOffset`.
    static func name(_ instant: Int64, timeZone: StoreTimeZone, withOffset: Bool = false) -> String {
        let offsetSeconds = timeZone.offsetSeconds(atMilliseconds: instant)
        let c = ISO8601.components(milliseconds: instant, offsetSeconds: offsetSeconds)
        var text = "\(ISO8601.pad(c.year, 4))-\(ISO8601.pad(c.month, 2))-\(ISO8601.pad(c.day, 2))T\(ISO8601.pad(c.hour, 2)):\(ISO8601.pad(c.minute, 2))"
        if withOffset { text += offsetText(offsetSeconds) }
        return text
    }

    /// The one instant `named` (`YYYY-MM-DDTHH:MM[:SS]`, no zone) stands for in `timeZone`.
    /// - Throws: ``TimerError/skippedLocalTime(_:timeZone:before:after:)`` in a skipped hour,
    ///   ``TimerError/repeatedLocalTime(_:timeZone:first:second:)`` in a repeated one; `text` is what the
    ///   user wrote, for the message.
    static func instant(named: String, text: String, timeZone: StoreTimeZone) throws(TimerError) -> Int64 {
        guard let local = ISO8601.milliseconds(from: named + "Z") else { throw .unreadableInstant(text) }
        let found = instants(ofLocal: local, timeZone: timeZone)
        if found.count == 1 { return found[0] }
        if found.count > 1 {
            let shown = String(named.prefix(16))
            let first = timeZone.offsetSeconds(atMilliseconds: found[0])
            let second = timeZone.offsetSeconds(atMilliseconds: found[found.count - 1])
            throw .repeatedLocalTime(text, timeZone: timeZone.identifier,
                                     first: shown + offsetText(first), second: shown + offsetText(second))
        }
        // Skipped: the clocks jumped over it, between these two instants.
        let around = offsets(around: local, timeZone: timeZone).sorted()
        let change = change(from: local - around[1] - day / 24, to: local - around[0] + day / 24, timeZone: timeZone)
        throw .skippedLocalTime(text, timeZone: timeZone.identifier,
                                before: name(change - 60_000, timeZone: timeZone), after: name(change, timeZone: timeZone))
    }

    static func offsetText(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + ISO8601.pad(minutes / 60, 2) + ":" + ISO8601.pad(minutes % 60, 2)
    }
}
