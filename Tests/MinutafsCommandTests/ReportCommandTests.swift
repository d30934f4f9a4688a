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

    /// SPEC section 9: "the rule is stated in `report --help`, the man page and the README".
    @Test("report --help, the man page and the README state the rounding rule: each row its own duration rounded half up, totals the sums of rows")
    func roundingRuleStated() throws {
        let help = try MinutafsBinary.run(["report", "--help"])
        #expect(help.status == 0)
        let manPage = try String(contentsOfFile: Fixtures.packageRoot + "/docs/minutafs.1", encoding: .utf8)
        let readme = try String(contentsOfFile: Fixtures.packageRoot + "/README.md", encoding: .utf8)
        for (name, text) in [("report --help", help.outputText), ("docs/minutafs.1", manPage), ("README.md", readme)] {
            // Line breaks and roff's hyphens aside, the words are there.
            let flat = text.replacingOccurrences(of: "\\-", with: "-").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(flat.contains("rounded half up"), "\(name) does not say how a row is rounded")
            #expect(flat.contains("own duration"), "\(name) does not say that each row shows its own duration")
            #expect(flat.contains("sum of the rows"), "\(name) does not say that totals are sums of the rows")
        }
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

    @Test("--format text prints a comment's terminal escapes escaped; the CSV keeps them and neutralises a formula")
    func hostileComment() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/store"
            try FileManager.default.copyItem(atPath: try Self.sample(), toPath: store)
            let comment = "=HYPERLINK(\"http://x\")\u{1B}]0;pwned\u{07}\u{1B}[2J"
            // --keep: a timer beside the sample's records of that day (an overlap is refused without it).
            let start = try MinutafsBinary.run(["start", "--keep", "--comment", comment, "--at", "2024-12-30T10:00", "--timezone", "UTC", store])
            #expect(start.status == 0, "\(start.errorText)")
            #expect(!start.standardOutput.contains(0x1B), "start printed an escape: \(start.outputText.debugDescription)")
            for arguments in [["--month", "2024-12"], ["--year", "2024"]] {
                let text = try MinutafsBinary.run(["report", store, "--timezone", "UTC"] + arguments)
                #expect(text.status == 0, "\(text.errorText)")
                #expect(!text.standardOutput.contains { $0 < 0x20 && $0 != 0x0A }, "\(arguments): \(text.outputText.debugDescription)")
            }
            let month = try MinutafsBinary.run(["report", store, "--timezone", "UTC", "--month", "2024-12"])
            #expect(month.outputText.contains("=HYPERLINK(\"http://x\")\\u{1B}]0;pwned"), "\(month.outputText)")
            let csv = try MinutafsBinary.run(["report", store, "--timezone", "UTC", "--month", "2024-12", "--format", "csv"])
            #expect(csv.status == 0, "\(csv.errorText)")
            let rows = try PythonScript.csvRows(csv.standardOutput)
            #expect(rows.contains { $0[6] == "'" + comment }, "the comment, kept, with a leading '")
        }
    }
}
