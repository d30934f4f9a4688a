import Foundation
import MinutaStore
import TestSupport
import Testing

/// Every form of date and time the store accepts, and forms it refuses. The expected instants are
/// worked out by Foundation's Gregorian calendar from the written fields, not by the code tested.
struct ISO8601TableTests {
    struct Accepted: Sendable, CustomTestStringConvertible {
        var text: String
        /// year, month, day, hour, minute, second, millisecond as written
        var fields: [Int]
        /// The written offset from UTC, in minutes.
        var offsetMinutes: Int
        var testDescription: String { text }

        /// The instant in milliseconds since 1970, from Foundation's calendar.
        func expected() throws -> Int64 {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
            let components = DateComponents(year: fields[0], month: fields[1], day: fields[2], hour: fields[3], minute: fields[4], second: fields[5])
            let date = try #require(calendar.date(from: components))
            return Int64(date.timeIntervalSince1970.rounded()) * 1000 + Int64(fields[6]) - Int64(offsetMinutes) * 60_000
        }
    }

    static let accepted: [Accepted] = [
        Accepted(text: "2024-01-15T09:30:00Z", fields: [2024, 1, 15, 9, 30, 0, 0], offsetMinutes: 0),
        Accepted(text: "2024-01-15T09:30Z", fields: [2024, 1, 15, 9, 30, 0, 0], offsetMinutes: 0),
        Accepted(text: "2024-01-15 09:30:00Z", fields: [2024, 1, 15, 9, 30, 0, 0], offsetMinutes: 0),
        Accepted(text: "2024-01-15t09:30:00z", fields: [2024, 1, 15, 9, 30, 0, 0], offsetMinutes: 0),
        Accepted(text: "2024-01-15T09:30:00.123Z", fields: [2024, 1, 15, 9, 30, 0, 123], offsetMinutes: 0),
        Accepted(text: "2024-01-15T09:30:00.1Z", fields: [2024, 1, 15, 9, 30, 0, 100], offsetMinutes: 0),
        Accepted(text: "2024-01-15T09:30:00.123999Z", fields: [2024, 1, 15, 9, 30, 0, 123], offsetMinutes: 0),
        Accepted(text: "2024-01-15T09:30:00,5Z", fields: [2024, 1, 15, 9, 30, 0, 500], offsetMinutes: 0),
        Accepted(text: "2024-01-15T09:30:00+02:00", fields: [2024, 1, 15, 9, 30, 0, 0], offsetMinutes: 120),
        Accepted(text: "2024-01-15T09:30:00+0200", fields: [2024, 1, 15, 9, 30, 0, 0], offsetMinutes: 120),
        Accepted(text: "2024-01-15T09:30:00+02", fields: [2024, 1, 15, 9, 30, 0, 0], offsetMinutes: 120),
        Accepted(text: "2024-01-15T09:30:00-05:30", fields: [2024, 1, 15, 9, 30, 0, 0], offsetMinutes: -330),
        Accepted(text: "2024-01-01T00:30:00+01:00", fields: [2024, 1, 1, 0, 30, 0, 0], offsetMinutes: 60),
        Accepted(text: "2024-02-29T12:00:00Z", fields: [2024, 2, 29, 12, 0, 0, 0], offsetMinutes: 0),
        Accepted(text: "2000-02-29T12:00:00Z", fields: [2000, 2, 29, 12, 0, 0, 0], offsetMinutes: 0),
        // A leap second is read as the second before it.
        Accepted(text: "2016-12-31T23:59:60Z", fields: [2016, 12, 31, 23, 59, 59, 0], offsetMinutes: 0),
        Accepted(text: "1969-12-31T23:59:59.999Z", fields: [1969, 12, 31, 23, 59, 59, 999], offsetMinutes: 0),
        Accepted(text: "9999-12-31T23:59:59.999Z", fields: [9999, 12, 31, 23, 59, 59, 999], offsetMinutes: 0),
    ]

    @Test("accepted forms give the instant they name", arguments: accepted)
    func acceptedForm(row: Accepted) throws {
        #expect(ISO8601.milliseconds(from: row.text) == (try row.expected()))
    }

    @Test("the canonical form written reads back to the same instant", arguments: accepted)
    func canonicalRoundTrip(row: Accepted) throws {
        let instant = try row.expected()
        let written = ISO8601.string(milliseconds: instant)
        #expect(written.hasSuffix("Z"))
        #expect(ISO8601.milliseconds(from: written) == instant, "\(written)")
    }

    /// The bounds of the accepted years, as the well-known Unix times of 0001-01-01T00:00:00Z
    /// (proleptic Gregorian, .NET's `DateTime.MinValue`) and 9999-12-31T23:59:59.999Z.
    /// Foundation's calendar cannot derive the first: it switches to the Julian calendar before 1582.
    @Test("the first and last accepted instants")
    func bounds() {
        #expect(ISO8601.milliseconds(from: "0001-01-01T00:00:00Z") == -62_135_596_800_000)
        #expect(ISO8601.milliseconds(from: "9999-12-31T23:59:59.999Z") == 253_402_300_799_999)
        #expect(ISO8601.string(milliseconds: -62_135_596_800_000) == "0001-01-01T00:00:00Z")
    }

    /// The written form against Foundation's own ISO 8601 formatter, which derives it independently,
    /// for instants spread over 1600-9999 (Foundation's calendar is Gregorian there).
    @Test("written instants match Foundation's ISO 8601 formatter")
    func writtenAsFoundationWritesThem() {
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var random = SeededGenerator(seed: 8601)
        let first: Int64 = -11_676_096_000_000  // 1600-01-01T00:00:00Z
        for step in 0..<5_000 {
            var instant = Int64.random(in: first...253_402_300_799_999, using: &random)
            if step % 2 == 0 { instant -= instant % 1000 }  // whole seconds: no fraction is written
            let date = Date(timeIntervalSince1970: Double(instant) / 1000)
            let expected = instant % 1000 == 0 ? plain.string(from: date) : fractional.string(from: date)
            #expect(ISO8601.string(milliseconds: instant) == expected, "\(instant)")
        }
    }

    /// Beyond the years a record may hold, an instant a document holds is still written: zeros pad
    /// each field to its width, a negative year keeps its sign (as the interpolated form always did).
    @Test("instants outside the accepted years, and padding", arguments: [Int64.min, -62_135_596_800_001, -1, 0, 253_402_300_800_000, Int64.max])
    func writtenOutsideTheYears(instant: Int64) {
        let c = ISO8601.components(milliseconds: instant)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var expected = "\(padded(c.year, 4))-\(padded(c.month, 2))-\(padded(c.day, 2))T\(padded(c.hour, 2)):\(padded(c.minute, 2)):\(padded(c.second, 2))"
        if c.millisecond != 0 { expected += ".\(padded(c.millisecond, 3))" }
        #expect(ISO8601.string(milliseconds: instant) == expected + "Z")
        for (value, width) in [(0, 4), (7, 2), (-7, 4), (12_345, 2), (Int.min, 3), (Int.max, 25)] {
            #expect(ISO8601.pad(value, width) == padded(value, width), "pad(\(value), \(width))")
        }
    }

    static let refused: [String] = [
        "",
        "2024-01-15",
        "2024-01-15T09:30:00",
        "2024-1-15T09:30:00Z",
        "24-01-15T09:30:00Z",
        "+2024-01-15T09:30:00Z",
        "2024-01-15X09:30:00Z",
        "2024-01-15T9:30:00Z",
        "2024-13-01T00:00:00Z",
        "2024-00-01T00:00:00Z",
        "2024-01-00T00:00:00Z",
        "2023-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "2024-04-31T00:00:00Z",
        "2024-01-15T24:00:00Z",
        "2024-01-15T09:60:00Z",
        "2024-01-15T09:30:61Z",
        "2024-01-15T09:30:00.Z",
        "2024-01-15T09:30:00+24:00",
        "2024-01-15T09:30:00+02:60",
        "2024-01-15T09:30:00+2:00",
        "2024-01-15T09:30:00+02:0",
        "2024-01-15T09:30:00Z ",
        " 2024-01-15T09:30:00Z",
        "0000-01-01T00:00:00Z",
        "0001-01-01T00:00:00+01:00",
        "2024-01-15T09:30:00 Z",
        "2024-01-15T09:30:00UTC",
    ]

    @Test("other forms and impossible dates are refused", arguments: refused)
    func refusedForm(text: String) {
        #expect(ISO8601.milliseconds(from: text) == nil)
    }
}
