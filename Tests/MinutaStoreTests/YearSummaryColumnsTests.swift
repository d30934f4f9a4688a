import Foundation
import MinutaStore
import Testing
import TestSupport

/// `summary.csv` stays a sheet a spreadsheet opens: a store with 10,000 tags gave 10,002 columns.
/// Beyond 200 tags, those with the least time share one `other tags (N)` column, as the picture's
/// legend does, and every row and column still adds up.
struct YearSummaryColumnsTests {
    @Test("10,000 tags: the 200 with the most time have columns, the other 9,800 share one, and the rows and columns add up")
    func tenThousandTags() throws {
        let count = 10_000
        // Tag i holds one record of i + 1 minutes; a tag is named like the shared column, to be told apart.
        let tags = (0..<count).map { ReportTag(id: "T\($0)", name: $0 == count - 1 ? "other tags (9800)" : "Tag \($0)", color: nil) }
        let first: Int64 = 1_705_309_200_000  // 2024-01-15T09:00:00Z
        let records = (0..<count).map { index in
            ReportRecord(id: "R\(index)", start: first, end: first + Int64(index + 1) * 60_000, tagID: "T\(index)", comment: "", imageCount: 0)
        }
        let report = MonthReport(month: Month(year: 2024, month: 1)!, records: records, tags: tags, timeZone: .utc, now: 0)
        let rows = try PythonScript.csvRows(YearSummaryCSV.bytes([report], tags: tags))
        let header = try #require(rows.first)
        #expect(header.count == 1 + 200 + 1 + 1, "\(header.count) columns")
        #expect(header.first == "month" && header.last == "total")
        #expect(header[header.count - 2] == "other tags (9800)")
        // The 200 with the most time, in the tags' order: Tag 9800 ... Tag 9998, then the one named
        // like the shared column, shown with its id.
        #expect(Array(header[1..<200]) == (9800..<9999).map { "Tag \($0)" })
        #expect(header[200] == "other tags (9800) [T9999]")
        // The shared column: the sum of the others' own hours, worked out here with integers.
        var others: Int64 = 0
        for index in 0..<9800 {
            let milliseconds = Int64(index + 1) * 60_000
            others += (milliseconds + 18_000) / 36_000
        }
        let monthRow = rows[1]
        #expect(monthRow[header.count - 2] == ReportRoundingTests.hoursText(hundredths: others))
        let cells = try monthRow.dropFirst().dropLast().map { try ReportRoundingTests.decimal($0) }
        #expect(cells.reduce(0, +) == (try ReportRoundingTests.decimal(monthRow.last ?? "")))
        #expect(rows.last?.dropFirst().map { $0 } == monthRow.dropFirst().map { $0 })
        // The text report's tag table has the same columns.
        let text = ReportText.year([report], tags: tags)
        #expect(text.contains("other tags (9800) "), "\(text.suffix(400))")
    }
}
