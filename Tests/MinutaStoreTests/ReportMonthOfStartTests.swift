import FileTreeInterface
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// SPEC section 9: "a record counts in the month and on the day it starts, whichever document holds
/// it". The app files a record by the phone's zone: a Berlin phone files a record of Feb 1 00:20 in
/// February's document, while a store in UTC sees it start on Jan 31 at 23:20.
struct ReportMonthOfStartTests {
    static let berlin = StoreTimeZone(identifier: "Europe/Berlin")!
    static let january = Month(year: 2024, month: 1)!
    static let february = Month(year: 2024, month: 2)!
    /// 2024-02-01T00:20+01:00 to 01:20+01:00: 2024-01-31 23:20 to 2024-02-01 00:20 in UTC.
    static let phoneRecord = #"{"startTime": "2024-02-01T00:20:00+01:00", "endTime": "2024-02-01T01:20:00+01:00", "comment": "standup", "images": []}"#

    /// Files `json` as a Berlin phone would, in the month of its start in Berlin; returns its id.
    static func fileAsPhone(_ json: String, in month: Month, store path: String) throws -> String {
        let phone = try Store(folder: FilePath(path), timeZone: Self.berlin)
        let outcome = try phone.writeRecordFile(Array(json.utf8), named: "new.json", in: month)
        #expect(outcome.month == month)
        return outcome.id
    }

    static func ids(_ bytes: [UInt8]) throws -> [String] {
        try PythonScript.csvRows(bytes).dropFirst().map { $0[8] }
    }

    @Test("a record February's document holds that starts on January 31 in the store's zone is in January's reports, not February's")
    func heldByTheNextMonth() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let id = try Self.fileAsPhone(Self.phoneRecord, in: Self.february, store: path)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            #expect(try store.recordFiles(in: Self.february).contains { $0.id == id }, "the document holding it is February's")
            let reports = StoreReports(store: store, clock: { 0 })
            let january = try PythonScript.csvRows(reports.contents(of: .timesheet(Self.january)))
            let row = try #require(january.first { $0[8] == id }, "January's timesheet lacks it")
            #expect(Array(row[0...4]) == ["2024-01-31", "2024-01-31 23:20:00", "2024-02-01 00:20:00", "1:00", "1.00"])
            #expect(try !Self.ids(reports.contents(of: .timesheet(Self.february))).contains(id), "February's timesheet still counts it")
            // The by-tag totals, the summary and the text report count it in January.
            let januarySheet = january.dropFirst()
            let byTag = try PythonScript.csvRows(reports.contents(of: .byTag(Self.january)))
            #expect(byTag.last?[2] == String(januarySheet.count))
            let summary = try PythonScript.csvRows(reports.contents(of: .summary(year: "2024")))
            #expect(summary.first { $0[0] == "2024-01" }?.last == byTag.last?[1])
            // The picture counts it in January too: its title is the by-tag total; 40 minutes are drawn
            // on the 31st and the 20 that run into February (0.33 h) are noted as outside the month.
            let picture = try PNGCheck.render(reports.contents(of: .picture(Self.january)), counting: [])
            #expect(picture.texts.first?.hasPrefix("2024-01: \(byTag.last?[1] ?? "") h") == true, "\(picture.texts.first ?? "")")
            #expect(picture.texts.contains("⚠ \(ReportRoundingTests.expectedHours(20 * 60_000)) h of the total lie outside this month's days: not drawn."),
                    "\(picture.texts.suffix(3))")
            let text = ReportText.month(try reports.monthReport(Self.january))
            #expect(text.contains("standup"))
            #expect(!ReportText.month(try reports.monthReport(Self.february)).contains("standup"))
        }
    }

    @Test("a month without a document has reports when a neighbour holds a record that starts in it, across a year's end too")
    func monthWithoutDocument() throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/store"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            // 2025-01-01 00:20 in Berlin: 2024-12-31 23:20 UTC, filed in 2025's January.
            let newYear = #"{"startTime": "2025-01-01T00:20:00+01:00", "endTime": "2025-01-01T02:20:00+01:00", "comment": "fireworks", "images": []}"#
            let id = try Self.fileAsPhone(newYear, in: try #require(Month(year: 2025, month: 1)), store: path)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            #expect(try store.months() == [Month(year: 2025, month: 1)], "the only document is 2025-01")
            let reports = StoreReports(store: store, clock: { 0 })
            let december = try #require(Month(year: 2024, month: 12))
            #expect(try reports.months(inYear: "2024") == [december])
            #expect(try reports.months() == [december, Month(year: 2025, month: 1)])
            #expect(try Self.ids(reports.contents(of: .timesheet(december))) == [id])
            #expect(try Self.ids(reports.contents(of: .timesheet(try #require(Month(year: 2025, month: 1))))).isEmpty)
            let summary = try PythonScript.csvRows(reports.contents(of: .summary(year: "2024")))
            #expect(summary.map { $0[0] } == ["month", "2024-12", "total"])
            #expect(summary.last?.last == "2.00")
            // The mount's reports/ lists the year and the month.
            let view = StoreView(store: store, reports: reports)
            #expect(try view.entries(inDirectory: "/reports").map(\.name) == ["2024", "2025"])
            #expect(try view.entries(inDirectory: "/reports/2024").map(\.name) == ["12.csv", "12-by-tag.csv", "12.svg", "summary.csv"])
        }
    }

    @Test("a record that crosses a month's end counts whole in the month it starts, in the store's zone", arguments: ["UTC", "America/New_York", "Asia/Kolkata"])
    func crossingTheMonthsEnd(zoneName: String) throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/store"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            let zone = try #require(StoreTimeZone(identifier: zoneName))
            // 22:00 on January 31 to 02:00 on February 1, in the store's zone.
            let offset = zone.offsetSeconds(atMilliseconds: 1_706_738_400_000)
            let start = 1_706_738_400_000 - Int64(offset) * 1000  // 2024-01-31T22:00:00Z shifted to local 22:00
            let json = #"{"startTime": \#(start), "endTime": \#(start + 4 * 3_600_000), "images": []}"#
            let store = try Store(folder: FilePath(path), timeZone: zone)
            let outcome = try store.writeRecordFile(Array(json.utf8), named: "new.json", in: Self.january)
            #expect(outcome.month == Self.january)
            let reports = StoreReports(store: store, clock: { 0 })
            let january = try PythonScript.csvRows(reports.contents(of: .timesheet(Self.january)))
            #expect(january.dropFirst().map { Array($0[0...4]) } == [["2024-01-31", "2024-01-31 22:00:00", "2024-02-01 02:00:00", "4:00", "4.00"]])
            #expect(try !reports.hasReports(Self.february))
            #expect(try reports.months(inYear: "2024") == [Self.january])
        }
    }

    @Test("a record whose start falls in no month of the store's zone counts in the month of the document that holds it")
    func startInNoMonthOfTheZone() throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/store"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            // Written in UTC on the last second of 9999; in Kiritimati (UTC+14) that is in the year 10000.
            let december = try #require(Month(year: 9999, month: 12))
            let json = #"{"startTime": "9999-12-31T23:59:00Z", "endTime": "9999-12-31T23:59:30Z", "comment": "last minute", "images": []}"#
            _ = try Store(folder: FilePath(path), timeZone: .utc).writeRecordFile(Array(json.utf8), named: "new.json", in: december)
            let kiritimati = try #require(StoreTimeZone(identifier: "Pacific/Kiritimati"))
            let store = try Store(folder: FilePath(path), timeZone: kiritimati)
            #expect(try store.recordFiles(in: december).count == 1, "the record is shown in its document's month")
            let reports = StoreReports(store: store, clock: { 0 })
            let rows = try PythonScript.csvRows(reports.contents(of: .timesheet(december))).dropFirst()
            #expect(rows.count == 1 && rows.first?[6] == "last minute", "\(rows)")
        }
    }
}
