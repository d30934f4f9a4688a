import Foundation

/// The time zone the store files records in and names their files by (SPEC section 1).
public struct StoreTimeZone: Sendable {
    public let identifier: String
    private let zone: TimeZone

    /// `nil` identifier: the machine's local zone. Returns `nil` for an unknown identifier.
    public init?(identifier: String?) {
        if let identifier {
            guard let zone = TimeZone(identifier: identifier) else { return nil }
            self.zone = zone
            self.identifier = identifier
        } else {
            self.zone = TimeZone.current
            self.identifier = TimeZone.current.identifier
        }
    }

    public static let utc = StoreTimeZone(identifier: "UTC")!

    public func offsetSeconds(atMilliseconds milliseconds: Int64) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// Whether the wall-clock time of an instant in this zone is also another instant's: it falls in
    /// the hour clocks repeat when they go back (02:30 on 2025-10-26 in Europe/Berlin is 00:30 UTC and
    /// 01:30 UTC). Such a time needs its UTC offset to say which it is.
    public func isRepeatedLocalTime(atMilliseconds milliseconds: Int64) -> Bool {
        // Outside the years a date can be written in, no wall time is shown (and a day either side
        // of an extreme instant is past `Int64`).
        guard ISO8601.validRange.contains(milliseconds) else { return false }
        let offset = offsetSeconds(atMilliseconds: milliseconds)
        // A change of offset within a day either side is the only way the same wall time comes twice.
        for probe in [milliseconds - 86_400_000, milliseconds + 86_400_000] {
            let other = offsetSeconds(atMilliseconds: probe)
            guard other != offset else { continue }
            let twin = milliseconds + Int64(offset - other) * 1000
            if twin != milliseconds, offsetSeconds(atMilliseconds: twin) == other { return true }
        }
        return false
    }

    /// ` +02:00` (with its space) for an instant in the hour clocks repeat, to follow its wall time;
    /// empty for any other (``isRepeatedLocalTime(atMilliseconds:)``).
    public func offsetSuffixWhenRepeated(atMilliseconds milliseconds: Int64) -> String {
        isRepeatedLocalTime(atMilliseconds: milliseconds) ? " " + offsetText(atMilliseconds: milliseconds) : ""
    }

    /// `+02:00`: the UTC offset of an instant in this zone; with seconds when it has them (the local
    /// mean times before standard time, `-07:52:58`).
    public func offsetText(atMilliseconds milliseconds: Int64) -> String {
        let offset = offsetSeconds(atMilliseconds: milliseconds)
        let magnitude = abs(offset)
        return (offset < 0 ? "-" : "+") + ISO8601.pad(magnitude / 3600, 2) + ":" + ISO8601.pad(magnitude / 60 % 60, 2)
            + (magnitude % 60 == 0 ? "" : ":" + ISO8601.pad(magnitude % 60, 2))
    }

    /// The month an instant falls in, in this zone.
    public func month(ofMilliseconds milliseconds: Int64) -> Month? {
        let c = ISO8601.components(milliseconds: milliseconds, offsetSeconds: offsetSeconds(atMilliseconds: milliseconds))
        return Month(year: c.year, month: c.month)
    }

    /// `2024-01-15_093000`: the record file name stem for an instant, in this zone.
    public func fileStem(ofMilliseconds milliseconds: Int64) -> String {
        let c = ISO8601.components(milliseconds: milliseconds, offsetSeconds: offsetSeconds(atMilliseconds: milliseconds))
        return "\(ISO8601.pad(c.year, 4))-\(ISO8601.pad(c.month, 2))-\(ISO8601.pad(c.day, 2))_\(ISO8601.pad(c.hour, 2))\(ISO8601.pad(c.minute, 2))\(ISO8601.pad(c.second, 2))"
    }
}
