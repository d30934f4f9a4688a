import Foundation
import Testing
import TestSupport

/// `minutafs report`: the reports of the mount, printed without one.
struct ReportCommandTests {
    static func sample() throws -> String { try Fixtures.directory("stores") + "/app-2024" }

    @Test("--month --format csv prints the month's timesheet: Python's csv reads one row per record of the month")
    func monthCSV() throws {
        let result = try MinutafsBinary.run(["report", try Self.sample(), "--month", "2024-02", "--format", "csv", "--timezone", "UTC"])
        #expect(result.status == 0, "\(result.errorText)")
        let rows = try PythonScript.csvRows(result.standardOutput)
        let dump = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath:
            try Fixtures.directory("stores") + "/app-2024.expected/records/2024/02.json"))) as? [String: Any])
        #expect(rows.first == ["date", "start", "end", "duration", "hours", "tag", "comment", "images", "id"])
        #expect(Set(rows.dropFirst().map { $0[8] }) == Set(dump.keys))
        #expect(rows.count == dump.count + 1)
    }

    @Test("--year --format csv prints summary.csv; text prints tables with totals; svg is a picture")
    func yearAndFormats() throws {
        let summary = try MinutafsBinary.run(["report", try Self.sample(), "--year", "2024", "--format", "csv", "--timezone", "UTC"])
        #expect(summary.status == 0, "\(summary.errorText)")
        let rows = try PythonScript.csvRows(summary.standardOutput)
        #expect(rows.map { $0[0] } == ["month"] + (1...12).map { $0 < 10 ? "2024-0\($0)" : "2024-\($0)" } + ["total"])
        let text = try MinutafsBinary.run(["report", try Self.sample(), "--month", "2024-02", "--timezone", "UTC"])
        #expect(text.status == 0)
        #expect(text.outputText.hasPrefix("2024-02 (UTC)\n"))
        let totalLine = text.outputText.split(separator: "\n").last { $0.hasPrefix("total ") }
        let februaryHours = try #require(rows.first { $0[0] == "2024-02" }?.last)
        #expect(totalLine?.contains(" \(februaryHours) ") == true, "text total \(totalLine ?? "none"), summary.csv \(februaryHours)")
        let svg = try MinutafsBinary.run(["report", try Self.sample(), "--month", "2024-02", "--format", "svg", "--timezone", "UTC"])
        #expect(svg.status == 0)
        let rendering = try PNGCheck.render(svg.standardOutput, counting: [])
        #expect(rendering.pngWidth == rendering.svgWidth)
    }

    @Test("usage errors exit 64; a month without records is one line and exit 1")
    func errors() throws {
        #expect(try MinutafsBinary.run(["report", try Self.sample(), "--year", "2024", "--format", "svg"]).status == 64)
        #expect(try MinutafsBinary.run(["report", try Self.sample(), "--month", "2024-13"]).status == 64)
        #expect(try MinutafsBinary.run(["report", try Self.sample(), "--month", "2024-01", "--year", "2024"]).status == 64)
        let missing = try MinutafsBinary.run(["report", try Self.sample(), "--month", "2023-05"])
        #expect(missing.status == 1)
        #expect(missing.errorText.hasPrefix("minutafs: ") && missing.errorText.split(separator: "\n").count == 1, "\(missing.errorText)")
        #expect(missing.standardOutput.isEmpty)
    }
}
