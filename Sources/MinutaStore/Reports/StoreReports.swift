import Foundation
import Synchronization

/// The reports of a store (SPEC section 9), computed when first read and kept until the records
/// they show (or the tags) change: the store's month views are compared by identity first, so a
/// read when nothing changed costs a comparison. A report with a running timer follows the clock.
///
/// A record counts in the month it starts in the store's time zone, whichever document holds it:
/// the app files a record by the phone's zone, so April's document may hold a record that starts on
/// 31 March here, and a record may cross a month's end. A month's reports therefore take the
/// records of its own document that start in it (or have no usable start), and those of the
/// neighbouring months' documents that start in it: zones differ by at most 26 hours, and a record
/// another device moved stays in the document of its start's month. The store's views show a record
/// held by two documents once (its holder index, `Replica/MonthReplicas+RecordHolders.swift`), and ids are
/// compared once more here, so no record counts twice.
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

    /// The months whose reports `reports/YYYY/` shows: those with a document or an image folder, and
    /// those without in which a record held by a neighbouring month's document starts.
    public func months(inYear yearName: String) throws(StoreError) -> [Month] {
        guard Month.isYearName(yearName), let year = Int(yearName) else { return [] }
        var months = Set(try store.months(inYear: yearName))
        let neighbours = [Month(year: year - 1, month: 12), Month(year: year + 1, month: 1)].compactMap { $0 }
        let held = months.union(neighbours.filter(store.hasMonth))
        for month in held {
            for candidate in [month.previous, month.next].compactMap({ $0 })
            where candidate.year == year && !months.contains(candidate) && !held.contains(candidate) {
                if try holdsRecordsStarting(in: candidate, heldBy: month) { months.insert(candidate) }
            }
        }
        return months.sorted()
    }

    /// Every month with reports, in order (``months(inYear:)`` for every year).
    public func months() throws(StoreError) -> [Month] {
        var years = Set(try store.months().map(\.year))
        for year in Array(years) { years.formUnion([year - 1, year + 1]) }
        var result: [Month] = []
        for year in years.sorted() where (1...9999).contains(year) { result += try months(inYear: ISO8601.pad(year, 4)) }
        return result
    }

    /// Whether `month` has reports (see ``months(inYear:)``).
    public func hasReports(_ month: Month) throws(StoreError) -> Bool {
        if store.hasMonth(month) { return true }
        for neighbour in [month.previous, month.next].compactMap({ $0 }) where store.hasMonth(neighbour) {
            if try holdsRecordsStarting(in: month, heldBy: neighbour) { return true }
        }
        return false
    }

    /// The bytes of a report file; `StoreError.notFound` for a month or year without records.
    public func contents(of file: ReportFile) throws(StoreError) -> [UInt8] {
        let months: [Month]
        switch file {
        case .timesheet(let month), .byTag(let month), .picture(let month):
            guard try hasReports(month) else { throw .notFound("reports/\(month.yearName)/\(month.monthName)") }
            months = [month]
        case .summary(let year):
            months = try self.months(inYear: year)
            guard !months.isEmpty else { throw .notFound("reports/\(year)/summary.csv") }
        }
        // What the reports are made from: the files of each month and of its neighbours, loaded side
        // by side when not held yet (on two or more cores their loads overlap instead of adding up).
        prepare(Array(Set(months.flatMap(Self.sourceMonths(of:)))).sorted())
        var sources: [Month: [RecordFile]] = [:]
        for month in months {
            for source in Self.sourceMonths(of: month) where sources[source] == nil {
                sources[source] = store.hasMonth(source) ? try store.recordFiles(in: source) : []
            }
        }
        let records = sources.keys.sorted().compactMap { sources[$0] }
        let tags = try store.tagsFile()
        if let cached = cache.withLock({ $0[file] }), !cached.dependsOnClock, cached.tags == tags, cached.records == records {
            return cached.bytes
        }
        let now = clock()
        let reportTags = Self.tags(tags)
        var reports: [MonthReport] = []
        for month in months {
            reports.append(MonthReport(month: month, records: reportRecords(in: month, files: sources), tags: reportTags,
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

    /// Loads and renders those of `months` the store does not show yet, each on its own thread (the
    /// documents decode without the store's lock, `Replica/MonthReplicas+Prefetch.swift`).
    private func prepare(_ months: [Month]) {
        let store = self.store
        let missing = months.filter { store.replicas.publishedViews.view(of: $0) == nil && store.hasMonth($0) }
        guard missing.count > 1 else { return }
        DispatchQueue.concurrentPerform(iterations: missing.count) { index in store.replicas.prefetch(missing[index]) }
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

    /// The months whose documents may hold records that count in `month`: it and its neighbours.
    public static func sourceMonths(of month: Month) -> [Month] {
        [month.previous, month, month.next].compactMap { $0 }
    }

    /// The records that count in `month`, read from the record files of it and its neighbours.
    func reportRecords(in month: Month) throws(StoreError) -> [ReportRecord] {
        var files: [Month: [RecordFile]] = [:]
        for source in Self.sourceMonths(of: month) where store.hasMonth(source) {
            files[source] = try store.recordFiles(in: source)
        }
        return reportRecords(in: month, files: files)
    }

    /// The records that count in `month`, as the record files (`files`, by the month that holds them)
    /// show them: those that start in it, and those of its own document without a usable start or whose
    /// start falls in no month of the store's zone (before the year 1 or after 9999 there: another
    /// device in another zone could write it), so no record shown is missing from every report.
    func reportRecords(in month: Month, files: [Month: [RecordFile]]) -> [ReportRecord] {
        var seen = Set<RecordID>()
        var records: [ReportRecord] = []
        // Its own document first: a record held twice counts as the month's own copy shows it.
        for holder in [month] + Self.sourceMonths(of: month).filter({ $0 != month }) {
            for file in files[holder] ?? [] {
                // A file's name is its start in the store's zone: another month's files are parsed only
                // when their name says they may start in this one (the parsed start decides).
                if holder != month && !file.name.hasPrefix(month.description + "-") { continue }
                guard let json = try? JSONParser.parse(file.contents), let record = ReportRecord(json: json) else { continue }
                let countsHere = record.start.flatMap(store.timeZone.month(ofMilliseconds:)).map { $0 == month } ?? (holder == month)
                guard countsHere, seen.insert(RecordID(record.id)).inserted else { continue }
                records.append(record)
            }
        }
        return records
    }

    /// Whether the document of `holder` holds a record that starts in `month`.
    func holdsRecordsStarting(in month: Month, heldBy holder: Month) throws(StoreError) -> Bool {
        !reportRecords(in: month, files: [holder: try store.recordFiles(in: holder)]).isEmpty
    }
}
