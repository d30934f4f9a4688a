import Foundation
import MinutaStore
import Testing
import TestSupport

/// Reports are safe to open anywhere and readable when the data is odd (SPEC section 9):
/// no formula runs in a spreadsheet, no comment drives the terminal, every row is distinguishable, and
/// a timer left running is flagged.
struct ReportSafetyTests {
    static let january = ReportTests.january
    static let nine = ReportTests.nine
    static let minute = ReportTests.minute
    static let hour: Int64 = 3_600_000

    static func record(_ id: String, minutes: Int64? = 30, at offset: Int64 = 0, tag: String? = "T1", comment: String = "") -> ReportRecord {
        ReportTests.record(id, start: nine + offset * minute, minutes: minutes, tag: tag, comment: comment)
    }

    @Test("a cell a spreadsheet would run as a formula gets a leading ' and quotes; every other cell is byte for byte", arguments: [
        ("=HYPERLINK(\"http://x\",\"click\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"click\"\")\""),
        ("=cmd|' /C calc'!A0", "\"'=cmd|' /C calc'!A0\""),
        ("+1+1", "\"'+1+1\""), ("-2+3", "\"'-2+3\""), ("@SUM(A1)", "\"'@SUM(A1)\""),
        ("\tx", "\"'\tx\""), ("\rx", "\"'\rx\""),
        ("a=1", "a=1"), (" =1", " =1"), ("plain", "plain"), ("", ""), ("'quoted", "'quoted"), ("日本=", "日本="),
        ("1, 2", "\"1, 2\""), ("x\ny", "\"x\ny\""),
    ] as [(String, String)])
    func formulaCells(comment: String, expected: String) throws {
        let tags = [ReportTag(id: "T1", name: comment.isEmpty ? "Work" : comment, color: nil)]
        let report = MonthReport(month: Self.january, records: [Self.record("R", comment: comment)], tags: tags, timeZone: .utc, now: 0)
        let sheet = String(decoding: TimesheetCSV.bytes(report), as: UTF8.self)
        let line = sheet.split(separator: "\r\n", omittingEmptySubsequences: false)[1]
        #expect(line.hasSuffix(",\(expected),0,R") || comment.isEmpty, "MM.csv row: \(line)")
        let rows = try PythonScript.csvRows(TimesheetCSV.bytes(report))
        let shown = CSVFormula.isFormula(comment) ? "'" + comment : comment
        #expect(rows[1][6] == shown)
        if !comment.isEmpty {
            #expect(rows[1][5] == shown, "the tag name")
            #expect(try PythonScript.csvRows(TagSummaryCSV.bytes(report))[1][0] == shown)
            #expect(try PythonScript.csvRows(YearSummaryCSV.bytes([report], tags: tags))[0][1] == shown)
        }
    }

    @Test("a tag named total, month, (untagged), (unknown tag X) or the same as another is told apart; two unknown ids get two rows")
    func distinguishableRows() throws {
        let tags = [
            ReportTag(id: "T1", name: "total", color: nil), ReportTag(id: "T2", name: "(untagged)", color: nil),
            ReportTag(id: "T3", name: "Work", color: nil), ReportTag(id: "T4", name: "Work", color: nil),
            ReportTag(id: "T5", name: "(unknown tag GONE)", color: nil), ReportTag(id: "T6", name: "Work [T3]", color: nil),
            ReportTag(id: "T7", name: "month", color: nil), ReportTag(id: "T8", name: "", color: nil),
        ]
        let records = (1...8).map { Self.record("R\($0)", at: Int64($0) * 60, tag: "T\($0)") }
            + [Self.record("U", at: 600, tag: nil), Self.record("G1", at: 700, tag: "GONE"), Self.record("G2", at: 800, tag: "LOST")]
        let report = MonthReport(month: Self.january, records: records, tags: tags, timeZone: .utc, now: 0)
        let byTag = try PythonScript.csvRows(TagSummaryCSV.bytes(report)).map { $0[0] }
        #expect(byTag == ["tag", "total [T1]", "(untagged) [T2]", "Work [T3]", "Work [T4]", "(unknown tag GONE) [T5]", "Work [T3] [T6]",
                          "month [T7]", "[T8]", "(untagged)", "(unknown tag GONE)", "(unknown tag LOST)", "total"])
        #expect(Set(byTag).count == byTag.count)
        let summary = try PythonScript.csvRows(YearSummaryCSV.bytes([report], tags: tags))
        #expect(Set(summary[0]).count == summary[0].count, "\(summary[0])")
        #expect(Set(summary.map { $0[0] }).count == summary.count)
        // MM.csv names tags as MM-by-tag.csv does; untagged time has an empty tag cell, no tag does.
        let sheet = try PythonScript.csvRows(TimesheetCSV.bytes(report)).dropFirst().map { $0[5] }
        #expect(sheet == ["total [T1]", "(untagged) [T2]", "Work [T3]", "Work [T4]", "(unknown tag GONE) [T5]", "Work [T3] [T6]", "month [T7]", "[T8]",
                          "", "(unknown tag GONE)", "(unknown tag LOST)"])
        let legend = MonthPicture.layout(report).legend
        #expect(legend.contains(.category(.unknownTag("GONE"))) && legend.contains(.category(.unknownTag("LOST"))))
    }

    @Test("a comment's or tag's terminal escapes are printed escaped by the text reports")
    func terminalEscapes() {
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2Jgone\u{9B}31m"
        let tags = [ReportTag(id: "T1", name: "tag\u{1B}[31m", color: nil)]
        let report = MonthReport(month: Self.january, records: [Self.record("R", comment: hostile)], tags: tags, timeZone: .utc, now: 0)
        for text in [ReportText.month(report), ReportText.year([report], tags: tags)] {
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }, "\(text.debugDescription)")
        }
        #expect(ReportText.month(report).contains("\\u{1B}]0;pwned\\u{7}"))
        #expect(ReportText.month(report).contains("tag\\u{1B}[31m"))
    }

    /// Terminal columns of the test's own text, worked out here: every character beyond ASCII in it
    /// (家事, 料理と掃除, 🚀, 👩‍💻) is wide.
    static func columns(_ text: Substring) -> Int {
        text.reduce(0) { $0 + (($1.unicodeScalars.first?.value ?? 0) < 0x80 ? 1 : 2) }
    }

    @Test("table columns line up by display width: CJK and emoji take two columns")
    func alignedByWidth() {
        let tags = [ReportTag(id: "T1", name: "家事", color: nil), ReportTag(id: "T2", name: "🚀 launch", color: nil), ReportTag(id: "T3", name: "Work", color: nil)]
        let records = [Self.record("A", tag: "T1", comment: "料理と掃除"), Self.record("B", at: 60, tag: "T2", comment: "👩‍💻 ok"),
                       Self.record("C", at: 120, tag: "T3", comment: "plain")]
        let report = MonthReport(month: Self.january, records: records, tags: tags, timeZone: .utc, now: 0)
        let text = ReportText.month(report)
        // In the by-tag table every line's Hours column ends at the same terminal column.
        let byTag = text.components(separatedBy: "\n\n")[2].split(separator: "\n").filter { !$0.hasPrefix("-") }
        let ends = byTag.map { line -> Int in
            let hoursEnd = line.range(of: "0.50") ?? line.range(of: "1.50") ?? line.range(of: "Hours")
            return hoursEnd.map { Self.columns(line[..<$0.upperBound]) } ?? -1
        }
        #expect(Set(ends).count == 1, "\(byTag)")
        // In the records table the Comment column starts at one terminal column.
        let recordLines = text.components(separatedBy: "\n\n")[1].split(separator: "\n").filter { !$0.hasPrefix("-") && !$0.contains("total") }
        let starts = recordLines.map { line -> Int in
            let comment = ["Comment", "料理と掃除", "👩‍💻 ok", "plain"].compactMap { line.range(of: $0) }.first
            return comment.map { Self.columns(line[..<$0.lowerBound]) } ?? -1
        }
        #expect(Set(starts).count == 1, "\(recordLines)")
    }

    @Test("display width", arguments: [
        ("a", 1), ("家", 2), ("カ", 2), ("한", 2), ("Ａ", 2), ("🚀", 2), ("👩‍💻", 2), ("🇯🇵", 2), ("❤️", 2), ("❤", 1), ("é", 1),
        ("e\u{301}", 1), ("\u{200B}", 0), ("⚠", 1), ("α", 1), ("½", 1), ("𠀋", 2), ("。", 2),
    ] as [(String, Int)])
    func displayWidth(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test("text is cut to a number of terminal columns, with …", arguments: [
        ("abcdef", 4, "abc…"), ("abcd", 4, "abcd"), ("家事家事", 5, "家事…"), ("家事家事", 4, "家…"), ("a家事", 4, "a家…"), ("🚀🚀🚀", 6, "🚀🚀🚀"),
    ] as [(String, Int, String)])
    func prefixByWidth(text: String, columns: Int, expected: String) {
        #expect(DisplayWidth.prefix(text, columns: columns) == expected)
        #expect(DisplayWidth.of(DisplayWidth.prefix(text, columns: columns)) <= columns)
    }

    @Test("a timer running for more than a day: counted in full in the CSVs, flagged in MM.csv and the text reports; a short one is not")
    func longRunningTimer() throws {
        let now = Self.nine + 40 * 24 * Self.hour
        let records = [Self.record("OLD", minutes: nil), Self.record("DONE", at: 60)]
        let report = MonthReport(month: Self.january, records: records, tags: ReportTests.tags, timeZone: .utc, now: now)
        let sheet = try PythonScript.csvRows(TimesheetCSV.bytes(report))
        #expect(sheet[1][2] == "running (more than a day)")
        #expect(sheet[1][4] == "960.00", "the truth: 40 days")
        #expect(sheet[2][2] != "running (more than a day)")
        let text = ReportText.month(report)
        #expect(text.contains("running (>1 day)"))
        #expect(text.contains("A timer has been running for more than a day, since 2024-01-15 09:00"))
        let february = try #require(Month(year: 2024, month: 2))
        let quiet = MonthReport(month: february, records: [ReportTests.record("X", start: Self.nine + 31 * 24 * Self.hour, minutes: 60)],
                                tags: ReportTests.tags, timeZone: .utc, now: now)
        let year = ReportText.year([report, quiet], tags: ReportTests.tags)
        #expect(year.contains("A timer running for more than a day counts up to now in 2024-01."), "\(year)")
        #expect(year.contains("2024-01 !") && !year.contains("2024-02 !"))
        // A timer started an hour ago is not flagged.
        let short = MonthReport(month: Self.january, records: [Self.record("NEW", minutes: nil)], tags: ReportTests.tags, timeZone: .utc, now: Self.nine + Self.hour)
        #expect(try PythonScript.csvRows(TimesheetCSV.bytes(short))[1][2] == "running")
        #expect(!ReportText.month(short).contains("more than a day"))
        #expect(!ReportText.year([short], tags: ReportTests.tags).contains("more than a day"))
    }
}

/// What makes a CSV cell a formula, worked out here independently of `CSVWriter`.
enum CSVFormula {
    static func isFormula(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        return ["=", "+", "-", "@", "\t", "\r"].contains(first)
    }
}
