import Foundation
import Synchronization

/// The reports of a store (SPEC section 9), computed when first read and kept until the records
/// they show (or the tags) change: the store's month views are compared by identity first, so a
/// read when nothing changed costs a comparison. A report with a running timer follows the clock.
public final class StoreReports: Sendable {
    public let store: Store
    private let clock: @Sendable () -> Int64
    private let cache = Mutex<[ReportFile: Entry]>([:])

    struct Entry {
        var records: [[RecordFile]]
        var tags: [UInt8]
        var bytes: [UInt8]
        var dependsOnClock: Bool
    }

    /// `clock`: milliseconds since the epoch, for running timers (the system clock unless told).
    public init(store: Store, clock: @escaping @Sendable () -> Int64 = StoreReports.systemClock) {
        self.store = store
        self.clock = clock
    }

    public static let systemClock: @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// The months whose reports `reports/YYYY/` shows.
    public func months(inYear yearName: String) throws(StoreError) -> [Month] {
        try store.months(inYear: yearName)
    }

    /// The bytes of a report file; `StoreError.notFound` for a month or year without records.
    public func contents(of file: ReportFile) throws(StoreError) -> [UInt8] {
        let months: [Month]
        switch file {
        case .timesheet(let month), .byTag(let month), .picture(let month):
            guard store.hasMonth(month) else { throw .notFound("reports/\(month.yearName)/\(month.monthName)") }
            months = [month]
        case .summary(let year):
            months = try store.months(inYear: year)
            guard !months.isEmpty else { throw .notFound("reports/\(year)/summary.csv") }
        }
        var records: [[RecordFile]] = []
        for month in months { records.append(try store.recordFiles(in: month)) }
        let tags = try store.tagsFile()
        if let cached = cache.withLock({ $0[file] }), !cached.dependsOnClock, cached.tags == tags, cached.records == records {
            return cached.bytes
        }
        let now = clock()
        let reportTags = Self.tags(tags)
        var reports: [MonthReport] = []
        for month in months {
            reports.append(MonthReport(month: month, records: try reportRecords(in: month), tags: reportTags,
                                       timeZone: store.timeZone, now: now))
        }
        let bytes: [UInt8]
        switch file {
        case .timesheet: bytes = TimesheetCSV.bytes(reports[0])
        case .byTag: bytes = TagSummaryCSV.bytes(reports[0])
        case .picture: bytes = MonthPicture.bytes(reports[0])
        case .summary: bytes = YearSummaryCSV.bytes(reports, tags: reportTags)
        }
        let entry = Entry(records: records, tags: tags, bytes: bytes, dependsOnClock: reports.contains { $0.dependsOnClock })
        cache.withLock { $0[file] = entry }
        return bytes
    }

    /// Whether `file`'s contents follow the clock (a running timer in what it shows), so that they change
    /// without any change to the store; true until it was computed.
    public func followsClock(_ file: ReportFile) -> Bool {
        cache.withLock { $0[file]?.dependsOnClock ?? true }
    }

    /// A month's report numbers, for the `report` command.
    public func monthReport(_ month: Month) throws(StoreError) -> MonthReport {
        MonthReport(month: month, records: try reportRecords(in: month), tags: Self.tags(try store.tagsFile()),
                    timeZone: store.timeZone, now: clock())
    }

    /// The tags of the store's `tags.json`, as reports name and color them.
    public func tags() throws(StoreError) -> [ReportTag] { Self.tags(try store.tagsFile()) }

    static func tags(_ bytes: [UInt8]) -> [ReportTag] {
        guard let json = try? JSONParser.parse(bytes) else { return [] }
        return ReportTag.tags(inTagsFile: json)
    }

    /// The records of `month` as reports see them: the values its record files show, taken from the
    /// document (no serializing and parsing back).
    func reportRecords(in month: Month) throws(StoreError) -> [ReportRecord] {
        try store.recordValues(in: month).compactMap(ReportRecord.init(json:))
    }
}
