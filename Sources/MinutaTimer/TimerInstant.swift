import Foundation
import MinutaStore

/// The instants `--at` takes (SPEC 10), in the store's time zone: `now`; `HH:MM` or `HH:MM:SS` (today);
/// `YYYY-MM-DD` plus `THH:MM[:SS]` (as the history folder names them), with `Z` or an offset for
/// another zone; and an offset back from now, `-15m`, `-1h30m`, `-90s`, `-2h`. A clock time later than
/// now is yesterday's; a time the clocks skip or repeat is refused with the valid choices.
public enum TimerInstant {
    /// Milliseconds since the epoch `text` stands for at `now`.
    /// - Throws: ``TimerError/unreadableInstant(_:)`` for any other text, ``TimerError/instantInFuture(_:)``
    ///   for an instant after `now`, ``TimerError/outsideStoredYears(_:)`` for one before the year 1 in UTC.
    public static func milliseconds(of text: String, now: Int64, timeZone: StoreTimeZone) throws(TimerError) -> Int64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let instant: Int64
        if trimmed.lowercased() == "now" {
            instant = now
        } else if trimmed.hasPrefix("-") {
            guard let back = offsetMilliseconds(trimmed.dropFirst()) else { throw .unreadableInstant(text) }
            instant = now - back
        } else if let time = timeOfDay(trimmed) {
            return try clockTime(time, text: text, now: now, timeZone: timeZone)
        } else if trimmed.utf8.count > 10, hasZone(trimmed), let named = HistoryInstant.milliseconds(ofName: trimmed, timeZone: timeZone) {
            instant = named
        } else if trimmed.utf8.count > 10, HistoryInstant.milliseconds(ofName: trimmed, timeZone: timeZone) != nil {
            let named = trimmed.utf8.count == 16 ? trimmed + ":00" : trimmed
            instant = try LocalTime.instant(named: named, text: text, timeZone: timeZone)
        } else {
            throw .unreadableInstant(text)
        }
        guard instant <= now else { throw .instantInFuture(text) }
        guard ISO8601.validRange.contains(instant) else { throw .outsideStoredYears(text) }
        return instant
    }

    /// The end of an interval that starts at `start` (`track START - END`): a clock time is read
    /// relative to the start, on the start's day, or the next day when it is earlier than the start's
    /// clock time (`track 23:00 - 01:00` ends at 01:00 the day after); any other form as
    /// ``milliseconds(of:now:timeZone:)`` reads it.
    /// - Throws: as ``milliseconds(of:now:timeZone:)``; ``TimerError/instantInFuture(_:)`` for an end after `now`.
    public static func milliseconds(ofEnd text: String, after start: Int64, now: Int64, timeZone: StoreTimeZone) throws(TimerError) -> Int64 {
        guard let time = timeOfDay(text.trimmingCharacters(in: .whitespaces)) else {
            return try milliseconds(of: text, now: now, timeZone: timeZone)
        }
        let startDay = HistoryInstant.dayName(ofMilliseconds: start, timeZone: timeZone)
        let local = ISO8601.components(milliseconds: start, offsetSeconds: timeZone.offsetSeconds(atMilliseconds: start))
        let startClock = pad(local.hour) + ":" + pad(local.minute) + ":" + pad(local.second)
        var day = startDay
        if time < startClock {
            guard let noon = ISO8601.milliseconds(from: startDay + "T12:00:00Z") else { throw .unreadableInstant(text) }
            day = String(ISO8601.string(milliseconds: noon + LocalTime.day).prefix(10))
        }
        let instant = try LocalTime.instant(named: day + "T" + time, text: text, timeZone: timeZone)
        guard instant <= now else { throw .instantInFuture(text) }
        guard ISO8601.validRange.contains(instant) else { throw .outsideStoredYears(text) }
        return instant
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }

    /// A clock time (`HH:MM:SS`): today, or yesterday when today's is later than now (at 00:05,
    /// `23:50` is yesterday's, SPEC 10), as long as that is within the last 24 hours.
    static func clockTime(_ time: String, text: String, now: Int64, timeZone: StoreTimeZone) throws(TimerError) -> Int64 {
        let today = HistoryInstant.dayName(ofMilliseconds: now, timeZone: timeZone)
        guard let local = ISO8601.milliseconds(from: today + "T" + time + "Z") else { throw .unreadableInstant(text) }
        // Today's, unless every instant it names (or, in a skipped hour, would name) is after now.
        let candidates = LocalTime.instants(ofLocal: local, timeZone: timeZone)
        let earliest = candidates.first ?? local - (LocalTime.offsets(around: local, timeZone: timeZone).max() ?? 0)
        if earliest <= now {
            let instant = try LocalTime.instant(named: today + "T" + time, text: text, timeZone: timeZone)
            guard instant <= now else { throw .instantInFuture(text) }
            return instant
        }
        // The calendar day before (not 24 hours before: a day with a clock change has 23 or 25).
        guard let noon = ISO8601.milliseconds(from: today + "T12:00:00Z") else { throw .unreadableInstant(text) }
        let yesterday = String(ISO8601.string(milliseconds: noon - LocalTime.day).prefix(10))
        let instant = try LocalTime.instant(named: yesterday + "T" + time, text: text, timeZone: timeZone)
        guard instant <= now, instant > now - LocalTime.day else { throw .instantInFuture(text) }
        return instant
    }

    /// Whether a `YYYY-MM-DDTHH:MM` text carries `Z` or an offset after its date.
    static func hasZone(_ text: String) -> Bool {
        let time = text.utf8.dropFirst(11)
        return time.contains(UInt8(ascii: "Z")) || time.contains(UInt8(ascii: "+")) || time.contains(UInt8(ascii: "-"))
    }

    /// `HH:MM` or `HH:MM:SS` with valid numbers, as `HH:MM:SS`; nil for anything else.
    static func timeOfDay(_ text: String) -> String? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy { (48...57).contains($0) } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60 else { return nil }
        let second = parts.count == 3 ? Int(parts[2]) ?? 60 : 0
        guard second < 60 else { return nil }
        return parts.count == 3 ? text : text + ":00"
    }

    /// `1h30m`, `15m`, `90s`, `2h`: units h, m, s, each at most once, in that order; nil otherwise.
    static func offsetMilliseconds(_ text: Substring) -> Int64? {
        var total: Int64 = 0
        var number: Int64?
        var lastUnit = 0
        for character in text {
            if let digit = character.wholeNumberValue, character.isASCII {
                let (multiplied, overflow) = (number ?? 0).multipliedReportingOverflow(by: 10)
                guard !overflow, multiplied <= 1_000_000_000 else { return nil }
                number = multiplied + Int64(digit)
                continue
            }
            let unit: (rank: Int, milliseconds: Int64)
            switch character {
            case "h": unit = (1, 3_600_000)
            case "m": unit = (2, 60_000)
            case "s": unit = (3, 1000)
            default: return nil
            }
            guard let value = number, unit.rank > lastUnit else { return nil }
            total += value * unit.milliseconds
            lastUnit = unit.rank
            number = nil
        }
        guard number == nil, lastUnit > 0 else { return nil }
        return total
    }
}
