import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// When clocks go back, an hour of wall times comes twice (02:00-03:00 on 2025-10-26 in Berlin). A
/// time in it is shown with its UTC offset in the timesheet and the text report, so a record from the
/// first 02:30 to the second does not read as 02:30 to 02:30 for an hour; every other time is as before.
struct ReportRepeatedHourTests {
    static let berlin = StoreTimeZone(identifier: "Europe/Berlin")!
    static let october = Month(year: 2025, month: 10)!

    @Test("the zone knows which wall times come twice, and only those")
    func repeatedTimes() throws {
        let first = try #require(ISO8601.milliseconds(from: "2025-10-26T02:30:00+02:00"))
        let second = try #require(ISO8601.milliseconds(from: "2025-10-26T02:30:00+01:00"))
        #expect(Self.berlin.isRepeatedLocalTime(atMilliseconds: first) && Self.berlin.isRepeatedLocalTime(atMilliseconds: second))
        #expect(Self.berlin.offsetText(atMilliseconds: first) == "+02:00" && Self.berlin.offsetText(atMilliseconds: second) == "+01:00")
        for other in ["2025-10-26T01:59:00+02:00", "2025-10-26T03:00:00+01:00", "2025-03-30T03:30:00+02:00", "2025-03-30T01:30:00+01:00", "2025-07-01T02:30:00+02:00"] {
            #expect(!Self.berlin.isRepeatedLocalTime(atMilliseconds: try #require(ISO8601.milliseconds(from: other))), "\(other)")
        }
        #expect(!StoreTimeZone.utc.isRepeatedLocalTime(atMilliseconds: first))
        // Local mean time before standard time has seconds in its offset: they are written.
        let losAngeles = try #require(StoreTimeZone(identifier: "America/Los_Angeles"))
        #expect(losAngeles.offsetText(atMilliseconds: try #require(ISO8601.milliseconds(from: "1883-11-18T19:55:00Z"))) == "-07:52:58")
        #expect(losAngeles.offsetText(atMilliseconds: try #require(ISO8601.milliseconds(from: "2025-07-01T12:00:00Z"))) == "-07:00")
        // Times a document may hold but no date can show (a phone's absurd value): no wall time, no trap.
        for extreme in [Int64.min, Int64.max, ISO8601.validRange.lowerBound - 1, ISO8601.validRange.upperBound + 1] {
            #expect(!Self.berlin.isRepeatedLocalTime(atMilliseconds: extreme))
        }
        let newYork = try #require(StoreTimeZone(identifier: "America/New_York"))
        #expect(newYork.isRepeatedLocalTime(atMilliseconds: try #require(ISO8601.milliseconds(from: "2025-11-02T01:30:00-04:00"))))
        #expect(newYork.offsetText(atMilliseconds: try #require(ISO8601.milliseconds(from: "2025-11-02T01:30:00-05:00"))) == "-05:00")
    }

    @Test("a record in the repeated hour shows its offsets in the timesheet and the text report; another record shows none")
    func timesheetAndText() throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/store"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            let store = try Store(folder: FilePath(path), timeZone: Self.berlin)
            let repeated = #"{"startTime": "2025-10-26T02:30:00+02:00", "endTime": "2025-10-26T02:30:00+01:00", "comment": "night shift", "images": []}"#
            let plain = #"{"startTime": "2025-10-27T09:00:00+01:00", "endTime": "2025-10-27T10:00:00+01:00", "comment": "day", "images": []}"#
            _ = try store.writeRecordFile(Array(repeated.utf8), named: "new.json", in: Self.october)
            _ = try store.writeRecordFile(Array(plain.utf8), named: "other.json", in: Self.october)
            let reports = StoreReports(store: store, clock: { 0 })
            let rows = try PythonScript.csvRows(reports.contents(of: .timesheet(Self.october))).dropFirst().map { Array($0[0...4]) }
            #expect(rows == [["2025-10-26", "2025-10-26 02:30:00 +02:00", "2025-10-26 02:30:00 +01:00", "1:00", "1.00"],
                             ["2025-10-27", "2025-10-27 09:00:00", "2025-10-27 10:00:00", "1:00", "1.00"]])
            let text = ReportText.month(try reports.monthReport(Self.october))
            #expect(text.contains("02:30 +02:00") && text.contains("02:30 +01:00"), "\(text)")
            #expect(text.contains("09:00") && !text.contains("09:00 +"), "\(text)")
        }
    }
}
