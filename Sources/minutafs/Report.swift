import ArgumentParser
import Foundation
import MinutaStore

extension Minutafs {
    /// `minutafs report STORE [--month YYYY-MM | --year YYYY] [--format csv|svg|text]`: the reports
    /// of `MOUNT/reports/` without a mount.
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Print a month's timesheet or a year's summary (the files of MOUNT/reports/).",
            discussion: """
                --month YYYY-MM prints the month: as csv, reports/YYYY/MM.csv (one row per record); as svg, \
                reports/YYYY/MM.svg; as text, a table of its records and its hours by tag. --year YYYY \
                prints the year: as csv, reports/YYYY/summary.csv (months by tags, in hours); as text, its \
                months and tags. Without either, the latest month with records. Times are in the store's \
                time zone (--timezone, default the local one); a running timer counts up to now; a record \
                counts in the month and on the day it starts, whichever month's document holds it.

                Rounding: each row shows its own duration, the exact time from start to end rounded half up \
                to the minute (H:MM) and to the hundredth of an hour (hours), the same way everywhere; every \
                total (per tag, per month, the year, the picture's legend) is the sum of the rows it covers, \
                so the printed rows add up exactly to the printed totals.

                The store is only read: conflict copies waiting beside a document are merged in memory and \
                not written (run `minutafs merge` or mount the store to merge them into it), so the numbers \
                are those a mount shows; how many were merged is said on standard error.

                Exit status: 0 printed; 1 the store could not be read or has no such month or year; 64 usage error.

                Examples:
                  minutafs report ~/Dropbox/Minuta
                  minutafs report ~/Dropbox/Minuta --month 2024-03 --format csv > march.csv
                  minutafs report ~/Dropbox/Minuta --year 2024
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case csv, svg, text
        }

        @Argument(help: ArgumentHelp("The store folder (the one holding tags.automerge and records/).", valueName: "store"))
        var store: String

        @Option(help: ArgumentHelp("The month to report.", valueName: "YYYY-MM"))
        var month: String?

        @Option(help: ArgumentHelp("The year to report.", valueName: "YYYY"))
        var year: String?

        @Option(help: "csv, svg (a month only) or text.")
        var format: Format = .text

        @Option(help: ArgumentHelp("The time zone days and times are shown in (default: the local one).", valueName: "zone"))
        var timezone: String?

        func validate() throws {
            try TimeZoneOption.validate(timezone)
            if month != nil && year != nil { throw ValidationError("give --month or --year, not both") }
            if let month, Self.parseMonth(month) == nil { throw ValidationError("--month \(month): expected YYYY-MM, such as 2024-03") }
            if let year, !Month.isYearName(year) {
                throw ValidationError("--year \(year): expected four digits, such as 2024")
            }
            if year != nil && format == .svg { throw ValidationError("--format svg draws one month; use it with --month") }
        }

        static func parseMonth(_ text: String) -> Month? {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            return Month(yearName: String(parts[0]), monthName: String(parts[1]))
        }

        func run() throws {
            try reportingFailures {
                let opened = try StoreCommandSupport.openExistingStore(store, timeZone: timezone, readOnly: true)
                let reports = StoreReports(store: opened)
                let output: [UInt8]
                do throws(StoreError) {
                    output = try render(reports)
                } catch {
                    throw CommandFailure(path: store, cause: error.description)
                }
                FileHandle.standardOutput.write(Data(output))
                WaitingCopiesNotice.print(for: opened)
            }
        }

        private func render(_ reports: StoreReports) throws(StoreError) -> [UInt8] {
            if let year {
                let months = try reports.months(inYear: year)
                guard !months.isEmpty else { throw .notFound("records/\(year): no records in \(year)") }
                switch format {
                case .csv: return try reports.contents(of: .summary(year: year))
                case .svg, .text:
                    var monthReports: [MonthReport] = []
                    for month in months { monthReports.append(try reports.monthReport(month)) }
                    return Array(ReportText.year(monthReports, tags: try reports.tags()).utf8)
                }
            }
            let chosen: Month
            if let month, let parsed = Self.parseMonth(month) {
                guard try reports.hasReports(parsed) else { throw .notFound("\(parsed.documentPath): no records in \(parsed)") }
                chosen = parsed
            } else {
                guard let latest = try reports.months().max() else { throw .notFound("records: no records in the store") }
                chosen = latest
            }
            switch format {
            case .csv: return try reports.contents(of: .timesheet(chosen))
            case .svg: return try reports.contents(of: .picture(chosen))
            case .text: return Array(ReportText.month(try reports.monthReport(chosen)).utf8)
            }
        }
    }
}
