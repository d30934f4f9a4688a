import Foundation
import MinutaStore
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
