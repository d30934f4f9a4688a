/// The names of the folders in `.minutafs/history/` (SPEC section 8): a day `YYYY-MM-DD` (the store
/// as it was at the end of that day, in the store's time zone), or an instant
/// `YYYY-MM-DDTHH:MM[:SS]` in the store's time zone, or with `Z` or an offset (`+02:00`).
public enum HistoryInstant {
    /// The last millisecond a folder name stands for, or nil when it is no such name.
    public static func milliseconds(ofName name: String, timeZone: StoreTimeZone) -> Int64? {
        let bytes = Array(name.utf8)
        guard bytes.count >= 10, bytes.allSatisfy({ $0 < 128 }) else { return nil }
        if bytes.count == 10 {
            // A day: up to the last millisecond before the next day starts.
            guard let start = ISO8601.milliseconds(from: name + "T00:00:00Z") else { return nil }
            return utc(ofLocal: start + 86_400_000, timeZone: timeZone) - 1
        }
        guard bytes[10] == UInt8(ascii: "T") else { return nil }
        let time = bytes[11...]
        let hasZone = time.contains(UInt8(ascii: "Z")) || time.contains(UInt8(ascii: "+")) || time.contains(UInt8(ascii: "-"))
        if hasZone { return ISO8601.milliseconds(from: name) }
        guard let local = ISO8601.milliseconds(from: name + "Z") else { return nil }
        return utc(ofLocal: local, timeZone: timeZone)
    }

    /// The folder name of the day an instant falls on, in the store's time zone.
    public static func dayName(ofMilliseconds milliseconds: Int64, timeZone: StoreTimeZone) -> String {
        let c = ISO8601.components(milliseconds: milliseconds, offsetSeconds: timeZone.offsetSeconds(atMilliseconds: milliseconds))
        return "\(ISO8601.pad(c.year, 4))-\(ISO8601.pad(c.month, 2))-\(ISO8601.pad(c.day, 2))"
    }

    /// The instant whose wall-clock time in `timeZone` is `local` (milliseconds as if it were UTC),
    /// by one rule in every zone:
    /// - a time that happens twice (the hour repeated when clocks go back) is its **later** occurrence,
    ///   so a snapshot named by it holds everything done by that wall-clock time (as a day folder
    ///   holds everything done by the day's end);
    /// - a time that never happens (the hour skipped when clocks go forward) is read with the offset
    ///   in force before the change, so it falls just as far after the change (02:30 on the day
    ///   Berlin skips to 03:00 is 03:30 summer time).
    static func utc(ofLocal local: Int64, timeZone: StoreTimeZone) -> Int64 {
        // The offsets around `local`: a daylight-saving change lies between them when they differ.
        let day: Int64 = 86_400_000
        let before = Int64(timeZone.offsetSeconds(atMilliseconds: local - day)) * 1000
        let after = Int64(timeZone.offsetSeconds(atMilliseconds: local + day)) * 1000
        var valid: [Int64] = []
        for offset in [before, after, Int64(timeZone.offsetSeconds(atMilliseconds: local)) * 1000] {
            let candidate = local - offset
            if Int64(timeZone.offsetSeconds(atMilliseconds: candidate)) * 1000 == offset { valid.append(candidate) }
        }
        return valid.max() ?? local - before
    }
}
