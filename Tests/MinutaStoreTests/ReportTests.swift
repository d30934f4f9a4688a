import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// The reports of SPEC section 9, computed without a mount: CSV that Python's `csv` module reads
/// back, hours that add up, running timers and the day a record counts on.
struct ReportTests {
    static let january = Month(year: 2024, month: 1)!
    /// 2024-01-15T09:00:00Z.
    static let nine: Int64 = 1_705_309_200_000
    static let minute: Int64 = 60_000
    static let tags = [ReportTag(id: "T1", name: "Work, paid", color: "#FF0000"), ReportTag(id: "T2", name: "Yoga", color: "#00FF00")]

    static func record(_ id: String, start: Int64?, minutes: Int64?, tag: String? = "T1", comment: String = "", images: Int = 0) -> ReportRecord {
        ReportRecord(id: id, start: start, end: minutes.flatMap { m in start.map { $0 + m * minute } }, tagID: tag, comment: comment, imageCount: images)
    }

    @Test("comments with commas, quotes, newlines and non-Latin text come back from Python's csv module as written")
    func commentsRoundTrip() throws {
        let comments = ["plain", "a, b", "she said \"hi\"", "line one\nline two", "crlf\r\nend", "日本語のコメント", "Ελληνικά, \"и\" русский\n✓", ""]
        let records = comments.enumerated().map { index, comment in
            Self.record("R\(index)", start: Self.nine + Int64(index) * 60 * Self.minute, minutes: 30, comment: comment, images: index)
        }
        let report = MonthReport(month: Self.january, records: records, tags: Self.tags, timeZone: .utc, now: 0)
        let rows = try PythonScript.csvRows(TimesheetCSV.bytes(report))
        #expect(rows.first == ["date", "start", "end", "duration", "hours", "tag", "comment", "images", "id"])
        #expect(rows.dropFirst().map { $0[6] } == comments)
        #expect(rows.dropFirst().map { $0[5] } == Array(repeating: "Work, paid", count: comments.count))
        #expect(rows.dropFirst().map { $0[7] } == comments.indices.map(String.init))
        #expect(rows[1] == ["2024-01-15", "2024-01-15 09:00:00", "2024-01-15 09:30:00", "0:30", "0.50", "Work, paid", "plain", "0", "R0"])
    }

    @Test("three records of 20 minutes are 0.33 hours each and 0.99 together: every row its own number, every total their sum")
    func hoursRoundPerRow() throws {
        let records = (0..<3).map { Self.record("R\($0)", start: Self.nine + Int64($0) * 20 * Self.minute, minutes: 20) }
        let report = MonthReport(month: Self.january, records: records, tags: Self.tags, timeZone: .utc, now: 0)
        let sheet = try PythonScript.csvRows(TimesheetCSV.bytes(report))
        #expect(sheet.dropFirst().map { $0[4] } == ["0.33", "0.33", "0.33"])
        #expect(sheet.dropFirst().map { $0[3] } == ["0:20", "0:20", "0:20"])
        let byTag = try PythonScript.csvRows(TagSummaryCSV.bytes(report))
        #expect(byTag == [["tag", "hours", "records", "share"], ["Work, paid", "0.99", "3", "100.0%"], ["total", "0.99", "3", "100.0%"]])
        let summary = try PythonScript.csvRows(YearSummaryCSV.bytes([report], tags: Self.tags))
        #expect(summary == [["month", "Work, paid", "total"], ["2024-01", "0.99", "0.99"], ["total", "0.99", "0.99"]])
    }

    @Test("untagged time and time under each tag id tags.json lacks get rows of their own, in by-tag and summary")
    func untaggedAndUnknown() throws {
        let records = [
            Self.record("A", start: Self.nine, minutes: 60, tag: "T2"),
            Self.record("B", start: Self.nine + 60 * Self.minute, minutes: 90, tag: nil),
            Self.record("C", start: Self.nine + 150 * Self.minute, minutes: 30, tag: "GONE"),
            Self.record("D", start: Self.nine + 180 * Self.minute, minutes: 60, tag: "T1"),
        ]
        let report = MonthReport(month: Self.january, records: records, tags: Self.tags, timeZone: .utc, now: 0)
        let byTag = try PythonScript.csvRows(TagSummaryCSV.bytes(report))
        // 4 hours in all: 1 h = 25%, 1.5 h = 37.5%, 0.5 h = 12.5%.
        #expect(byTag == [
            ["tag", "hours", "records", "share"],
            ["Work, paid", "1.00", "1", "25.0%"], ["Yoga", "1.00", "1", "25.0%"],
            ["(untagged)", "1.50", "1", "37.5%"], ["(unknown tag GONE)", "0.50", "1", "12.5%"],
            ["total", "4.00", "4", "100.0%"],
        ])
        let sheet = try PythonScript.csvRows(TimesheetCSV.bytes(report))
        #expect(sheet.dropFirst().map { $0[5] } == ["Yoga", "", "(unknown tag GONE)", "Work, paid"])
        let summary = try PythonScript.csvRows(YearSummaryCSV.bytes([report], tags: Self.tags))
        #expect(summary[0] == ["month", "Work, paid", "Yoga", "(untagged)", "(unknown tag GONE)", "total"])
        #expect(summary[2] == ["total", "1.00", "1.00", "1.50", "0.50", "4.00"])
    }

    @Test("a running timer counts up to now and shows end = running")
    func runningTimer() throws {
        let now = Self.nine + 90 * Self.minute + 20_000
        let report = MonthReport(month: Self.january, records: [Self.record("R", start: Self.nine, minutes: nil)], tags: Self.tags, timeZone: .utc, now: now)
        #expect(report.dependsOnClock)
        let sheet = try PythonScript.csvRows(TimesheetCSV.bytes(report))
        #expect(sheet[1][2] == "running")
        #expect(sheet[1][3] == "1:30")
        #expect(sheet[1][4] == "1.51")  // 90 min 20 s = 1.5056 h
    }

    @Test("a record that crosses midnight counts on the day it starts, in the store's time zone")
    func dayOfStart() throws {
        // 2024-01-15T23:30:00Z to 2024-01-16T01:30:00Z.
        let start = Self.nine + 14 * 60 * Self.minute + 30 * Self.minute
        let record = Self.record("R", start: start, minutes: 120)
        let utc = MonthReport(month: Self.january, records: [record], tags: Self.tags, timeZone: .utc, now: 0)
        #expect(utc.dailyTotals[14].values.reduce(0, +) == 120 * Self.minute)
        #expect(utc.dailyTotals[15].isEmpty)
        let tokyo = try #require(StoreTimeZone(identifier: "Asia/Tokyo"))
        let inTokyo = MonthReport(month: Self.january, records: [record], tags: Self.tags, timeZone: tokyo, now: 0)
        #expect(inTokyo.dailyTotals[15].values.reduce(0, +) == 120 * Self.minute)
        let sheet = try PythonScript.csvRows(TimesheetCSV.bytes(inTokyo))
        #expect(sheet[1][0] == "2024-01-16")
        #expect(sheet[1][1] == "2024-01-16 08:30:00")
        #expect(sheet[1][2] == "2024-01-16 10:30:00")
    }

    /// 2025-01-01T00:00:00Z: "now" for the running timers of the sample store.
    static let fixtureNow: Int64 = 1_735_689_600_000

    @Test("the sample store: every CSV parses, and the totals equal a sum over the fixture's own record dumps")
    func sampleStore() throws {
        let store = try Store(folder: FilePath(try Fixtures.directory("stores") + "/app-2024"), timeZone: .utc)
        let reports = StoreReports(store: store, clock: { Self.fixtureNow })
        let expected = try Fixtures.directory("stores") + "/app-2024.expected"
        let tagDump = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: expected + "/tags.json"))) as? [String: Any])
        let summary = try PythonScript.csvRows(reports.contents(of: .summary(year: "2024")))
        // The fixture's record dumps, by the month each record starts in (UTC: the store's zone here),
        // whichever document holds it (SPEC 9).
        var byStart: [Month: [String: [String: Any]]] = [:]
        for month in 1...12 {
            let dump = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(expected)/records/2024/\(ISO8601Pad.two(month)).json"))) as? [String: [String: Any]])
            for (id, record) in dump {
                let start = try #require((record["startTime"] as? [String: Any])?["_ts"] as? NSNumber).int64Value
                let startMonth = try #require(StoreTimeZone.utc.month(ofMilliseconds: start))
                byStart[startMonth, default: [:]][id] = record
            }
        }
        var yearHundredths: Int64 = 0
        for month in 1...12 {
            let name = ISO8601Pad.two(month)
            let monthValue = try #require(Month(year: 2024, month: month))
            let dump = byStart[monthValue] ?? [:]
            // The independent sum: each record's endTime (or now, for a running timer) minus its
            // startTime, rounded half up to hundredths of an hour with integers, added up.
            var hundredths: Int64 = 0
            var unknown = 0
            for record in dump.values {
                let start = try #require((record["startTime"] as? [String: Any])?["_ts"] as? NSNumber).int64Value
                let end = ((record["endTime"] as? [String: Any])?["_ts"] as? NSNumber)?.int64Value ?? Self.fixtureNow
                hundredths += (max(0, end - start) + 18_000) / 36_000
                if let tag = record["tagId"] as? String, tagDump[tag] == nil { unknown += 1 }
            }
            yearHundredths += hundredths
            let sheet = try PythonScript.csvRows(reports.contents(of: .timesheet(monthValue)))
            #expect(sheet.count == dump.count + 1, "\(name).csv rows")
            #expect(Set(sheet.dropFirst().map { $0[8] }) == Set(dump.keys), "\(name).csv ids")
            #expect(sheet.allSatisfy { $0.count == 9 })
            let byTag = try PythonScript.csvRows(reports.contents(of: .byTag(monthValue)))
            let totalRow = try #require(byTag.last)
            #expect(totalRow[0] == "total")
            #expect(totalRow[1] == ReportRoundingTests.hoursText(hundredths: hundredths), "\(name): the dump's rows add up to \(hundredths) hundredths")
            #expect(totalRow[2] == String(dump.count))
            let unknownRows = byTag.filter { $0[0].hasPrefix("(unknown tag ") }.reduce(0) { $0 + (Int($1[2]) ?? 0) }
            #expect(unknownRows == unknown, "\(name): records under unknown tags")
            // The month's row of summary.csv shows the same total as its by-tag file.
            #expect(summary.first { $0[0] == "2024-\(name)" }?.last == totalRow[1], "\(name): summary.csv and \(name)-by-tag.csv")
        }
        // The year's total adds up the printed months, which add up their printed rows.
        let yearCell = try #require(summary.last?.last)
        let yearHours = try #require(Decimal(string: yearCell))
        let monthCells = try summary.dropFirst().dropLast().map { try #require(Decimal(string: $0.last ?? "")) }
        #expect(monthCells.reduce(0, +) == yearHours)
        #expect(yearCell == ReportRoundingTests.hoursText(hundredths: yearHundredths))
    }

    /// Reports read the records' values from the documents instead of parsing the files back (faster
    /// first read); they must still be exactly what the files show. The demo store has every kind of
    /// field, awkward comments and records filed in other months.
    @Test("the values reports read equal the record files' bytes parsed, month by month, loaded or parked")
    func valuesAgreeWithFiles() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            for store in [try Store(folder: FilePath(try Fixtures.directory("stores") + "/app-2024"), timeZone: .utc),
                          try Store(folder: FilePath(path), timeZone: try #require(StoreTimeZone(identifier: "Pacific/Auckland")))] {
                var compared = 0
                for month in try store.months(inYear: "2024") {
                    let files = try store.recordFiles(in: month)
                    let parsed = try files.map { try JSONParser.parse($0.contents) }
                    #expect(try store.recordValues(in: month) == parsed, "\(month.folderPath)")
                    compared += files.count
                }
                #expect(compared > 50, "the store had \(compared) records")
            }
        }
    }

    @Test("a report is computed once and kept until its month changes; a running timer follows the clock")
    func caching() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let clock = ClockBox(Self.fixtureNow)
            let reports = StoreReports(store: store, clock: { clock.value })
            let february = try #require(Month(year: 2024, month: 2))
            let first = try reports.contents(of: .timesheet(february))
            clock.value += 3_600_000
            #expect(try reports.contents(of: .timesheet(february)) == first, "no running timer in February: nothing to recompute")
            let file = try #require(try store.recordFiles(in: february).first)
            var json = StoreFixture.text(file.contents)
            json = json.replacingOccurrences(of: "\"id\"", with: "\"comment\": \"edited, \\\"now\\\"\",\n  \"id\"")
            if json.contains("\"comment\": \"edited") {
                _ = try store.writeRecordFile(Array(json.utf8), named: file.name, in: february)
            }
            let edited = try PythonScript.csvRows(reports.contents(of: .timesheet(february)))
            #expect(edited.contains { $0[8] == file.id && $0[6] == "edited, \"now\"" })
            // July has a running timer: its hours grow with the clock.
            let july = try #require(Month(year: 2024, month: 7))
            let before = try PythonScript.csvRows(reports.contents(of: .byTag(july))).last?[1]
            clock.value += 36_000_000
            let after = try PythonScript.csvRows(reports.contents(of: .byTag(july))).last?[1]
            let afterHours = try #require(Double(after ?? ""))
            let beforeHours = try #require(Double(before ?? ""))
            let difference = afterHours - beforeHours
            #expect(abs(difference - 10) < 0.011)
        }
    }
}

/// A settable clock for `StoreReports`.
final class ClockBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int64
    init(_ value: Int64) { stored = value }
    var value: Int64 {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

enum ISO8601Pad {
    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
