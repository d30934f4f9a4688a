/// Dates as the record files show them (`2024-01-15T09:30:00Z`, `.123` only when the
/// milliseconds are non-zero) and as users may write them: ISO 8601 with or without fractional
/// seconds and with any UTC offset (`Z`, `+01:00`, `+0100`), or integer milliseconds.
public enum ISO8601 {
    /// Proleptic Gregorian calendar arithmetic (days from civil, civil from days), valid for every
    /// year from 0 to 9999.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    package static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The broken-down time of `milliseconds` shifted by `offsetSeconds`. A document may hold any
    /// timestamp: one so near the ends of Int64 that the shift overflows is held there.
    public static func components(milliseconds: Int64, offsetSeconds: Int = 0)
        -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        let shifted = milliseconds.addingSaturated(Int64(offsetSeconds) * 1000)
        let (seconds, millisecond) = shifted.quotientAndRemainder(dividingBy: 1000)
        let adjustedSeconds = millisecond < 0 ? seconds - 1 : seconds
        let adjustedMillisecond = millisecond < 0 ? millisecond + 1000 : millisecond
        let (dayCount, secondOfDay) = adjustedSeconds.quotientAndRemainder(dividingBy: 86_400)
        let days = secondOfDay < 0 ? dayCount - 1 : dayCount
        let second = secondOfDay < 0 ? secondOfDay + 86_400 : secondOfDay
        let (year, month, day) = civil(days: Int(days))
        return (year, month, day, Int(second / 3600), Int(second % 3600 / 60), Int(second % 60), Int(adjustedMillisecond))
    }

    /// `2024-01-15T09:30:00Z` or `2024-01-15T09:30:00.123Z`.
    ///
    /// Written byte by byte into one buffer, not built from interpolated pieces (about 10,000
    /// instructions each): a record file shows two of these, so a month of 300 records renders 600.
    public static func string(milliseconds: Int64) -> String {
        let c = components(milliseconds: milliseconds)
        // A year takes 20 bytes at most (a sign and 19 digits); the rest 20.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
            var end = write(c.year, width: 4, into: buffer, at: 0)
            func field(after separator: Unicode.Scalar, _ value: Int, width: Int = 2) {
                buffer[end] = UInt8(ascii: separator)
                end = write(value, width: width, into: buffer, at: end + 1)
            }
            field(after: "-", c.month)
            field(after: "-", c.day)
            field(after: "T", c.hour)
            field(after: ":", c.minute)
            field(after: ":", c.second)
            if c.millisecond != 0 { field(after: ".", c.millisecond, width: 3) }
            buffer[end] = UInt8(ascii: "Z")
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<(end + 1)]), as: UTF8.self)
        }
    }

    /// `value` in decimal, with zeros before it up to `width` digits, and a minus sign before those when negative.
    package static func pad(_ value: Int, _ width: Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21 + max(0, width)) { buffer in
            let end = write(value, width: width, into: buffer, at: 0)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<end]), as: UTF8.self)
        }
    }

    /// Writes `value` as ``pad(_:_:)`` shows it into `buffer` from `start`; returns where it ends. The
    /// buffer must have room for a sign, 19 digits and the zeros.
    private static func write(_ value: Int, width: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var index = start
        if value < 0 {
            buffer[index] = UInt8(ascii: "-")
            index += 1
        }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        for _ in 0..<max(0, width - digits) {
            buffer[index] = UInt8(ascii: "0")
            index += 1
        }
        var position = index + digits - 1
        repeat {
            buffer[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            position -= 1
        } while magnitude > 0
        return index + digits
    }

    /// The earliest and latest instants accepted: years 1 to 9999.
    public static let validRange: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// Parses `YYYY-MM-DDTHH:MM[:SS[.fraction]](Z|±HH:MM|±HHMM|±HH)`; a space may stand for the `T`.
    /// Returns `nil` when the text is not such a date or names an impossible one.
    public static func milliseconds(from text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int? {
            guard bytes.count - index >= count else { return nil }
            var value = 0
            for _ in 0..<count {
                let byte = bytes[index]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                index += 1
            }
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2) else { return nil }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: "t") || bytes[index] == UInt8(ascii: " ") else { return nil }
        index += 1
        guard let hour = number(2), expect(":"), let minute = number(2) else { return nil }
        var second = 0, millisecond = 0
        if expect(":") {
            guard let value = number(2) else { return nil }
            second = value
            if expect(".") || expect(",") {
                var digits = 0, fraction = 0
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                    if digits < 3 { fraction = fraction * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { return nil }
                if digits < 3 { for _ in digits..<3 { fraction *= 10 } }
                millisecond = fraction
            }
        }
        var offset = 0
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
            index += 1
        } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let offsetHours = number(2) else { return nil }
            var offsetMinutes = 0
            if index < bytes.count {
                _ = expect(":")
                guard let value = number(2) else { return nil }
                offsetMinutes = value
            }
            guard offsetHours <= 23, offsetMinutes <= 59 else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        guard (1...12).contains(month), hour <= 23, minute <= 59, second <= 60, year >= 1 else { return nil }
        let monthLengths = [31, (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...monthLengths[month - 1]).contains(day) else { return nil }
        let seconds = Int64(days(year: year, month: month, day: day)) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59)) - Int64(offset)
        let result = seconds * 1000 + Int64(millisecond)
        return validRange.contains(result) ? result : nil
    }
}
