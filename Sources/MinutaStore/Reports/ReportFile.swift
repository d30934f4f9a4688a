/// A file of `MOUNT/reports/YYYY/`: a month's timesheet, its hours by tag, its picture, or the
/// year's summary.
public enum ReportFile: Hashable, Sendable {
    case timesheet(Month)
    case byTag(Month)
    case picture(Month)
    case summary(year: String)

    /// The file of this name in the folder of `yearName` (`01.csv`, `01-by-tag.csv`, `01.svg`, `summary.csv`).
    public init?(name: String, yearName: String) {
        if name == "summary.csv" {
            self = .summary(year: yearName)
            return
        }
        for (suffix, make) in [("-by-tag.csv", ReportFile.byTag), (".csv", ReportFile.timesheet), (".svg", ReportFile.picture)] {
            guard name.hasSuffix(suffix) else { continue }
            guard let month = Month(yearName: yearName, monthName: String(name.dropLast(suffix.count))) else { return nil }
            self = make(month)
            return
        }
        return nil
    }

    /// The files of a year's folder with records in `months`, in listing order.
    public static func names(for months: [Month]) -> [String] {
        months.sorted().flatMap { [$0.monthName + ".csv", $0.monthName + "-by-tag.csv", $0.monthName + ".svg"] } + ["summary.csv"]
    }

    /// The names of the report files that show `month` (for the kernel's caches): `/reports/2024/01.csv`, ….
    public static func paths(showing month: Month) -> [String] {
        let folder = "/reports/" + month.yearName + "/"
        return [folder + month.monthName + ".csv", folder + month.monthName + "-by-tag.csv",
                folder + month.monthName + ".svg", folder + "summary.csv"]
    }

    public var yearName: String {
        switch self {
        case .timesheet(let month), .byTag(let month), .picture(let month): month.yearName
        case .summary(let year): year
        }
    }
}
