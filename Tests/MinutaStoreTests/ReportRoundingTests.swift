import Foundation
import MinutaStore
import Testing
import TestSupport

/// SPEC section 9: "the printed rows add up exactly to the printed totals (round once, then
/// distribute)". Checked with Python's csv module and Foundation's `Decimal`, not with the code under test.
struct ReportRoundingTests {
    @Test("largest remainder: the parts add up to the exact sum rounded half up, each rounded down or up", arguments: [
        ([1_200_000, 1_200_000, 1_200_000], 36_000, nil, [34, 33, 33]),  // 3 x 20 min = 1.00 h
        ([35_999, 0, 18_000], 36_000, nil, [1, 0, 0]),  // a part of exactly 0 stays 0
        ([18_000, 18_000], 36_000, nil, [1, 0]),  // 0.005 + 0.005 = 0.01: the tie goes to the first
        ([17_999], 36_000, nil, [0]),
        ([72_000, 36_000], 36_000, nil, [2, 1]),  // whole units are kept as they are
        ([29_999, 29_999, 29_999], 60_000, nil, [1, 0, 0]),  // 1.49999 min in all
        ([30_000, 30_000, 30_000], 60_000, 1, [1, 0, 0]),  // a given total (one part of a larger distribution)
        ([-5, 60_000], 60_000, nil, [0, 1]),
        ([], 60_000, nil, []),
    ] as [([Int64], Int64, Int64?, [Int64])])
    func distribute(values: [Int64], unit: Int64, total: Int64?, expected: [Int64]) {
        #expect(ReportRounding.distribute(values, unit: unit, total: total) == expected)
    }

    @Test("shares add up to 100.0%", arguments: [
        ([1, 1, 1], [334, 333, 333]), ([1, 0], [1000, 0]), ([0, 0], [0, 0]), ([1, 2, 3, 4, 5, 6], [48, 95, 143, 190, 238, 286]),
        ([Int64.max / 2, Int64.max / 2], [500, 500]),
    ] as [([Int64], [Int64])])
    func shares(parts: [Int64], expected: [Int64]) {
        #expect(ReportRounding.shares(parts) == expected)
    }

    @Test("three records of 40 seconds: MM.csv's durations add up to the picture's and the text report's 0:02")
    func minutesAddUp() throws {
        let records = (0..<3).map { ReportTests.record("R\($0)", start: ReportTests.nine + Int64($0) * ReportTests.minute, minutes: nil) }
            .map { ReportRecord(id: $0.id, start: $0.start, end: $0.start.map { $0 + 40_000 }, tagID: "T1", comment: "", imageCount: 0) }
        let report = MonthReport(month: ReportTests.january, records: records, tags: ReportTests.tags, timeZone: .utc, now: 0)
        let sheet = try PythonScript.csvRows(TimesheetCSV.bytes(report)).dropFirst()
        #expect(try sheet.reduce(0) { $0 + (try Self.minutes($1[3])) } == 2, "\(sheet.map { $0[3] })")
        #expect(try Self.sum(sheet.map { $0[4] }) == Decimal(string: "0.03"), "\(sheet.map { $0[4] })")
        let rendering = try PNGCheck.render(MonthPicture.bytes(report), counting: [])
        #expect(rendering.texts.first == "2024-01: 0.03 h (0:02)")
        let text = ReportText.month(report)
        #expect(text.split(separator: "\n").contains { $0.hasSuffix("0:02  total") }, "\(text)")
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

    /// In 15 of 22 months the `hours` column did not add up to the month's total (each row rounded on
    /// its own): 2024-05, 451.30 against 451.28.
    @Test("every month of a generated store, in three time zones: MM.csv's hours and durations, MM-by-tag.csv, summary.csv and the picture add up exactly",
          arguments: ["UTC", "America/New_York", "Asia/Kolkata"])
    func generatedStoreAddsUp(zoneName: String) throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/demo"
            let demo = try MinutafsBinary.run(["demo", path, "--seed", "7", "--now", "2025-06-30T12:00:00Z", "--timezone", "UTC"])
            #expect(demo.status == 0, "\(demo.errorText)")
            let merge = try MinutafsBinary.run(["merge", path])
            #expect(merge.status == 0, "\(merge.errorText)")
            let zone = try #require(StoreTimeZone(identifier: zoneName))
            let store = try Store(path: path, timeZone: zone)
            let reports = StoreReports(store: store, clock: { 1_751_284_800_000 })  // 2025-06-30T12:00:00Z
            var files: [String: [UInt8]] = [:]
            var titles: [String: String] = [:]
            var years = Set<String>()
            for month in try store.months() {
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
