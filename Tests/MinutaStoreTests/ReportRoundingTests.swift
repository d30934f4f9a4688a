import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// SPEC section 9: "each row shows its own duration (`H:MM` to the minute, decimal hours to the
/// hundredth, each rounded half up from the exact duration), and every total is the sum of the rows it
/// covers". Expected figures are worked out here with integer arithmetic from each record's start and
/// end, and the files are read back with Python's csv module and Foundation's `Decimal`.
struct ReportRoundingTests {
    @Test("a duration is rounded half up to the unit shown", arguments: [
        (35_999, 36_000, 1), (18_000, 36_000, 1), (17_999, 36_000, 0), (0, 36_000, 0), (72_000, 36_000, 2),
        (29_999, 60_000, 0), (30_000, 60_000, 1), (89_999, 60_000, 1), (90_000, 60_000, 2), (-5, 60_000, 0),
        (Int64.max, 60_000, Int64.max / 60_000 + 1),
    ] as [(Int64, Int64, Int64)])
    func rounded(milliseconds: Int64, unit: Int64, expected: Int64) {
        #expect(ReportRounding.rounded(milliseconds, unit: unit) == expected)
    }

    @Test("shares add up to 100.0%", arguments: [
        ([1, 1, 1], [334, 333, 333]), ([1, 0], [1000, 0]), ([0, 0], [0, 0]), ([1, 2, 3, 4, 5, 6], [48, 95, 143, 190, 238, 286]),
        ([Int64.max / 2, Int64.max / 2], [500, 500]),
    ] as [([Int64], [Int64])])
    func shares(parts: [Int64], expected: [Int64]) {
        #expect(ReportRounding.shares(parts) == expected)
    }

    /// `H:MM` of a duration, worked out here: minutes rounded half up with integers.
    static func expectedClock(_ milliseconds: Int64) -> String {
        let minutes = (milliseconds + 30_000) / 60_000
        return "\(minutes / 60):" + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)"
    }

    /// Decimal hours of a duration, worked out here: hundredths rounded half up with integers.
    static func expectedHours(_ milliseconds: Int64) -> String {
        hoursText(hundredths: (milliseconds + 18_000) / 36_000)
    }

    static func hoursText(hundredths: Int64) -> String {
        "\(hundredths / 100)." + (hundredths % 100 < 10 ? "0" : "") + "\(hundredths % 100)"
    }

    /// Under largest-remainder sharing a record of 9 h 35 min 18 s showed 9:36 or 9.58 depending on
    /// its neighbours, and three of 20 min showed 0.34, 0.33 and 0.33.
    @Test("each row shows its own duration, and every total is the sum of its rows, in three time zones",
          arguments: ["UTC", "America/New_York", "Asia/Kolkata"])
    func rowsShowTheirOwnDuration(zoneName: String) throws {
        let zone = try #require(StoreTimeZone(identifier: zoneName))
        // (hours, minutes, seconds, milliseconds, tag): starts from 2024-01-10T08:00:00Z, well inside
        // January in every zone, one every day.
        let lengths: [(Int64, Int64, Int64, Int64, String?)] = [
            (9, 35, 18, 0, "T1"), (14, 12, 47, 0, "T1"), (0, 20, 0, 0, "T1"), (0, 20, 0, 0, "T1"), (0, 20, 0, 0, "T1"),
            (0, 0, 29, 999, "T2"), (0, 0, 30, 0, "T2"), (0, 0, 17, 999, "T2"), (0, 0, 18, 0, nil), (1, 29, 29, 500, nil),
        ]
        let first: Int64 = 1_704_873_600_000  // 2024-01-10T08:00:00Z
        let records = lengths.enumerated().map { index, length in
            let start = first + Int64(index) * 86_400_000
            let end = start + ((length.0 * 60 + length.1) * 60 + length.2) * 1000 + length.3
            return ReportRecord(id: "R\(index)", start: start, end: end, tagID: length.4, comment: "", imageCount: 0)
        }
        let report = MonthReport(month: ReportTests.january, records: records, tags: ReportTests.tags, timeZone: zone, now: 0)
        let sheet = try PythonScript.csvRows(TimesheetCSV.bytes(report)).dropFirst()
        #expect(sheet.count == records.count)
        for (row, record) in zip(sheet, records) {
            let duration = try #require(record.end) - (try #require(record.start))
            #expect(row[8] == record.id)
            #expect(row[3] == Self.expectedClock(duration), "\(zoneName) \(record.id) duration")
            #expect(row[4] == Self.expectedHours(duration), "\(zoneName) \(record.id) hours")
        }
        // The issue's own examples.
        #expect(Array(sheet.prefix(3).map { [$0[3], $0[4]] }) == [["9:35", "9.59"], ["14:13", "14.21"], ["0:20", "0.33"]])
        // Per tag and in all: the sums of the printed rows.
        let byTag = try PythonScript.csvRows(TagSummaryCSV.bytes(report))
        let total = try Self.sum(sheet.map { $0[4] })
        #expect(byTag.last?[0] == "total")
        #expect(try Self.decimal(try #require(byTag.last?[1])) == total)
        for tagRow in byTag.dropFirst().dropLast() {
            let name = tagRow[0] == "(untagged)" ? "" : tagRow[0]
            #expect(try Self.sum(sheet.filter { $0[5] == name }.map { $0[4] }) == Self.decimal(tagRow[1]), "\(zoneName) \(tagRow)")
        }
        let summary = try PythonScript.csvRows(YearSummaryCSV.bytes([report], tags: ReportTests.tags))
        #expect(summary[1].dropFirst().map { $0 } == byTag.dropFirst().dropLast().map { $0[1] } + [byTag.last?[1] ?? ""])
        #expect(try Self.decimal(try #require(summary.last?.last)) == total)
        // The picture's title and legend, and the text report's total.
        let minutes = try sheet.reduce(0) { $0 + (try Self.minutes($1[3])) }
        let clock = "\(minutes / 60):" + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)"
        let rendering = try PNGCheck.render(MonthPicture.bytes(report), counting: [])
        #expect(rendering.texts.first == "2024-01: \(byTag.last?[1] ?? "") h (\(clock))")
        for tagRow in byTag.dropFirst().dropLast() {
            #expect(rendering.texts.contains { $0.hasPrefix(tagRow[0]) && $0.hasSuffix(" \(tagRow[1]) h") }
                    || rendering.texts.contains("\(tagRow[1]) h"), "\(zoneName) legend \(tagRow): \(rendering.texts)")
        }
        let text = ReportText.month(report)
        #expect(text.split(separator: "\n").contains { $0.hasSuffix("\(clock)  total") }, "\(text)")
    }

    @Test("three records of 40 seconds: each row is 0:01 and 0.01, and the picture and the text report show their sums")
    func minutesAddUp() throws {
        let records = (0..<3).map { ReportTests.record("R\($0)", start: ReportTests.nine + Int64($0) * ReportTests.minute, minutes: nil) }
            .map { ReportRecord(id: $0.id, start: $0.start, end: $0.start.map { $0 + 40_000 }, tagID: "T1", comment: "", imageCount: 0) }
        let report = MonthReport(month: ReportTests.january, records: records, tags: ReportTests.tags, timeZone: .utc, now: 0)
        let sheet = try PythonScript.csvRows(TimesheetCSV.bytes(report)).dropFirst()
        #expect(sheet.map { $0[3] } == Array(repeating: Self.expectedClock(40_000), count: 3))
        #expect(sheet.map { $0[4] } == Array(repeating: Self.expectedHours(40_000), count: 3))
        #expect(try sheet.reduce(0) { $0 + (try Self.minutes($1[3])) } == 3, "\(sheet.map { $0[3] })")
        #expect(try Self.sum(sheet.map { $0[4] }) == Decimal(string: "0.03"), "\(sheet.map { $0[4] })")
        let rendering = try PNGCheck.render(MonthPicture.bytes(report), counting: [])
        #expect(rendering.texts.first == "2024-01: 0.03 h (0:03)")
        let text = ReportText.month(report)
        #expect(text.split(separator: "\n").contains { $0.hasSuffix("0:03  total") }, "\(text)")
    }

    /// Parses every CSV in `folder` with Python's csv module: file name to rows.
    static func parseAll(_ files: [String: [UInt8]]) throws -> [String: [[String]]] {
        try withTemporaryDirectory { folder in
            for (name, bytes) in files {
                guard FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes)) else { throw FixtureError("cannot write \(name)") }
            }
            let json = try PythonScript.run("""
                import csv, glob, json, os, sys
                result = {}
                for path in glob.glob(sys.argv[1] + '/*.csv'):
                    assert open(path, 'rb').read().endswith(b'\\r\\n'), path
                    with open(path, newline='', encoding='utf-8') as f:
                        result[os.path.basename(path)] = list(csv.reader(f, strict=True))
                json.dump(result, sys.stdout)
                """, arguments: [folder])
            guard let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [[String]]] else {
                throw FixtureError("python printed \(json.prefix(200))")
            }
            return parsed
        }
    }

    /// Milliseconds of a record file's date (`2024-01-15T09:30:00Z`, `.123` when not whole seconds).
    static func milliseconds(_ value: Any?) -> Int64? {
        guard let text = value as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter.date(from: text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }

    static func decimal(_ text: String) throws -> Decimal {
        guard text.utf8.allSatisfy({ (48...57).contains($0) || $0 == UInt8(ascii: ".") }), let value = Decimal(string: text) else {
            throw FixtureError("not hours: \(text)")
        }
        return value
    }

    /// Minutes of `H:MM`.
    static func minutes(_ text: String) throws -> Int {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]), parts[1].count == 2, minutes < 60 else {
            throw FixtureError("not H:MM: \(text)")
        }
        return hours * 60 + minutes
    }

    static func sum(_ texts: some Sequence<String>) throws -> Decimal {
        try texts.reduce(Decimal(0)) { $0 + (try decimal($1)) }
    }

    /// Every row against its record's own start and end, and every total against the sum of its rows.
    @Test("every month of a generated store, in three time zones: each row of MM.csv is its own duration, and MM-by-tag.csv, summary.csv and the picture add up its rows exactly",
          arguments: ["UTC", "America/New_York", "Asia/Kolkata"])
    func generatedStoreAddsUp(zoneName: String) throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/demo"
            let demo = try MinutafsBinary.run(["demo", path, "--seed", "7", "--now", "2025-06-30T12:00:00Z", "--timezone", "UTC"])
            #expect(demo.status == 0, "\(demo.errorText)")
            let merge = try MinutafsBinary.run(["merge", path])
            #expect(merge.status == 0, "\(merge.errorText)")
            let zone = try #require(StoreTimeZone(identifier: zoneName))
            let store = try Store(folder: FilePath(path), timeZone: zone)
            let reports = StoreReports(store: store, clock: { 1_751_284_800_000 })  // 2025-06-30T12:00:00Z
            // Each record's exact duration, from its file's startTime and endTime (now when running).
            var durations: [String: Int64] = [:]
            for month in try store.months() {
                for file in try store.recordFiles(in: month) {
                    let object = try #require(try JSONSerialization.jsonObject(with: Data(file.contents)) as? [String: Any])
                    let start = try #require(Self.milliseconds(object["startTime"]))
                    durations[file.id] = max(0, (Self.milliseconds(object["endTime"]) ?? 1_751_284_800_000) - start)
                }
            }
            var files: [String: [UInt8]] = [:]
            var titles: [String: String] = [:]
            var years = Set<String>()
            for month in try reports.months() {
                let name = "\(month.yearName)-\(month.monthName)"
                years.insert(month.yearName)
                files[name + ".csv"] = try reports.contents(of: .timesheet(month))
                files[name + "-by-tag.csv"] = try reports.contents(of: .byTag(month))
                let rendering = try PNGCheck.render(reports.contents(of: .picture(month)), counting: [])
                titles[name] = rendering.texts.first
            }
            for year in years { files[year + "-summary.csv"] = try reports.contents(of: .summary(year: year)) }
            let parsed = try Self.parseAll(files)
            #expect(titles.count >= 12, "months: \(titles.keys.sorted())")
            for (name, title) in titles.sorted(by: { $0.key < $1.key }) {
                let sheet = try #require(parsed[name + ".csv"]).dropFirst()
                let byTag = try #require(parsed[name + "-by-tag.csv"])
                let totalRow = try #require(byTag.last)
                #expect(totalRow[0] == "total")
                let total = try Self.decimal(totalRow[1])
                // MM.csv: each row shows its own duration.
                for row in sheet {
                    let duration = try #require(durations[row[8]], "\(row)")
                    #expect(row[3] == Self.expectedClock(duration) && row[4] == Self.expectedHours(duration), "\(zoneName) \(name) \(row)")
                }
                // MM.csv: hours add up to the month's total, and each tag's hours to its by-tag row.
                #expect(try Self.sum(sheet.map { $0[4] }) == total, "\(zoneName) \(name).csv hours")
                for tagRow in byTag.dropFirst().dropLast() {
                    let name = tagRow[0] == "(untagged)" ? "" : tagRow[0]
                    #expect(try Self.sum(sheet.filter { $0[5] == name }.map { $0[4] }) == Self.decimal(tagRow[1]), "\(zoneName) \(name): \(tagRow)")
                }
                #expect(try Self.sum(byTag.dropFirst().dropLast().map { $0[1] }) == total, "\(zoneName) \(name)-by-tag.csv")
                let shares = try byTag.dropFirst().dropLast().map { try Self.decimal(String($0[3].dropLast())) }
                if total > 0 { #expect(shares.reduce(0, +) == 100, "\(zoneName) \(name) shares") }
                // The picture's title: "2024-05: 451.28 h (451:17)", the sum of MM.csv's hours and durations.
                let minutes = try sheet.reduce(0) { $0 + (try Self.minutes($1[3])) }
                let clock = "\(minutes / 60):" + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)"
                #expect(title == "\(name): \(totalRow[1]) h (\(clock))", "\(zoneName) \(name).svg")
            }
            for year in years {
                let summary = try #require(parsed[year + "-summary.csv"])
                let body = summary.dropFirst().dropLast()
                for row in body {
                    #expect(try Self.sum(row.dropFirst().dropLast()) == Self.decimal(row.last ?? ""), "\(zoneName) summary \(row)")
                    let byTag = try #require(parsed[row[0] + "-by-tag.csv"])
                    #expect(row.last == byTag.last?[1], "\(zoneName) \(row[0]): summary.csv and by-tag")
                    for (column, header) in summary[0].enumerated().dropFirst().dropLast() where row[column] != "0.00" {
                        #expect(byTag.first { $0[0] == header }?[1] == row[column], "\(zoneName) \(row[0]) \(header)")
                    }
                }
                let totals = try #require(summary.last)
                for column in 1..<totals.count {
                    #expect(try Self.sum(body.map { $0[column] }) == Self.decimal(totals[column]), "\(zoneName) \(year) column \(summary[0][column])")
                }
            }
        }
    }
}
