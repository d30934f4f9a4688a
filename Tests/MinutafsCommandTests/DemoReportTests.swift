import Foundation
import Testing
import TestSupport

/// The demo store (merged), reported by `minutafs report` and summed independently from the legacy
/// JSON files `minutafs export` writes: every finished month's hours agree.
struct DemoReportTests {
    /// Each finished record's own hours (its exact time rounded half up to hundredths, with
    /// integers), added up by the month it starts in (UTC), whichever month folder holds it.
    static let sumScript = #"""
        import collections, csv, datetime, glob, json, os, sys
        exported, summary_paths = sys.argv[1], sys.argv[2:]
        def instant(text):
            return datetime.datetime.fromisoformat(text.replace('Z', '+00:00'))
        shown = {}
        for path in summary_paths:
            for row in list(csv.reader(open(path, newline='', encoding='utf-8'), strict=True))[1:-1]:
                shown[row[0]] = row[-1]
        months = collections.defaultdict(list)
        for path in glob.glob(exported + '/records/[0-9]*/[0-9]*/*.json'):
            record = json.load(open(path, encoding='utf-8'))
            months[instant(record['startTime']).strftime('%Y-%m')].append(record)
        for month, records in sorted(months.items()):
            if any(r.get('endTime') is None for r in records):
                continue
            hundredths = 0
            for r in records:
                milliseconds = (instant(r['endTime']) - instant(r['startTime'])) // datetime.timedelta(milliseconds=1)
                hundredths += (max(0, milliseconds) + 18000) // 36000
            print(month, shown.get(month, 'missing'), '%d.%02d' % (hundredths // 100, hundredths % 100))
        """#

    @Test("demo store: summary.csv of each year parses, and each finished month is the sum of its exported records' own hours")
    func demoTotals() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/demo"
            #expect(try MinutafsBinary.run(["demo", store, "--seed", "7", "--now", "2025-06-30T12:00:00Z", "--timezone", "UTC"]).status == 0)
            #expect(try MinutafsBinary.run(["merge", store]).status == 0)
            #expect(try MinutafsBinary.run(["export", store, folder + "/json", "--timezone", "UTC"]).status == 0)
            var summaries: [String] = []
            for year in ["2024", "2025"] {
                let result = try MinutafsBinary.run(["report", store, "--year", year, "--format", "csv", "--timezone", "UTC"])
                #expect(result.status == 0, "\(result.errorText)")
                _ = try PythonScript.csvRows(result.standardOutput)
                let path = folder + "/summary-\(year).csv"
                #expect(FileManager.default.createFile(atPath: path, contents: Data(result.standardOutput)))
                summaries.append(path)
            }
            let output = try PythonScript.run(Self.sumScript, arguments: [folder + "/json"] + summaries)
            let lines = output.split(separator: "\n")
            #expect(lines.count >= 8, "months compared: \(output)")
            for line in lines {
                let fields = line.split(separator: " ")
                #expect(fields.count == 3 && fields[1] == fields[2], "\(fields[0]): summary.csv \(fields.dropFirst().first ?? "") h, the records' own hours add up to \(fields.last ?? "") h")
            }
        }
    }
}
