import Foundation
import Testing
import TestSupport

/// The demo store (merged), reported by `minutafs report` and summed independently from the legacy
/// JSON files `minutafs export` writes: every finished month's hours agree.
struct DemoReportTests {
    static let sumScript = #"""
        import csv, datetime, glob, json, os, sys
        exported, summary_paths = sys.argv[1], sys.argv[2:]
        def instant(text):
            return datetime.datetime.fromisoformat(text.replace('Z', '+00:00'))
        shown = {}
        for path in summary_paths:
            for row in list(csv.reader(open(path, newline='', encoding='utf-8'), strict=True))[1:-1]:
                shown[row[0]] = row[-1]
        for folder in sorted(glob.glob(exported + '/records/[0-9]*/[0-9]*')):
            month = folder.split('/')[-2] + '-' + folder.split('/')[-1]
            records = [json.load(open(p, encoding='utf-8')) for p in glob.glob(folder + '/*.json')]
            if not records or any(r.get('endTime') is None for r in records):
                continue
            total = sum((instant(r['endTime']) - instant(r['startTime'])).total_seconds() for r in records)
            print(month, shown.get(month, 'missing'), total / 3600)
        """#

    @Test("demo store: summary.csv of each year parses, and each finished month equals the sum over the exported records")
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
                let shown = Double(fields[1])
                let summed = try #require(Double(fields[2]))
                #expect(shown.map { abs($0 - summed) <= 0.005 } == true, "\(fields[0]): summary.csv \(fields[1]) h, the records \(summed) h")
            }
        }
    }
}
