import MinutaStore

/// Where the timer commands read and write records: a mounted store through its mount (the mount stays
/// the single writer), or an unmounted store directly, under its writer lock (SPEC 10).
public protocol TimerBackend: Sendable {
    /// The store's time zone: record names and the month a new record is filed in.
    var timeZone: StoreTimeZone { get }
    /// What the commands name in their messages: "the mount at /home/me/minuta", "/home/me/Dropbox/Minuta".
    var placeDescription: String { get }
    /// The months that have a folder or a document, in order.
    func months() throws(TimerError) -> [Month]
    /// The record files of a month folder: names and bytes.
    func recordFiles(in month: Month) throws(TimerError) -> [(name: String, bytes: [UInt8])]
    /// The bytes of `tags.json`.
    func tagsJSON() throws(TimerError) -> [UInt8]
    /// Saves a record file (returns once it is durable).
    func write(_ bytes: [UInt8], named name: String, in month: Month) throws(TimerError)
    /// The record files of running timers by month, from an index kept up to date
    /// (`RunningTimerIndex`), or nil when the backend keeps none (then recent months are searched);
    /// `everyMonth` rebuilds the index from every month.
    func runningTimerFiles(everyMonth: Bool) throws(TimerError) -> [Month: [String]]?
    /// The record files of `month` with these names (fewer when some are gone).
    func recordFiles(named names: [String], in month: Month) throws(TimerError) -> [(name: String, bytes: [UInt8])]
    /// Creates a record from JSON without `id`, filed in `month`; returns the new record's id.
    func create(_ bytes: [UInt8], in month: Month) throws(TimerError) -> String
}

extension TimerBackend {
    public func runningTimerFiles(everyMonth: Bool) throws(TimerError) -> [Month: [String]]? { nil }

    public func recordFiles(named names: [String], in month: Month) throws(TimerError) -> [(name: String, bytes: [UInt8])] {
        try recordFiles(in: month).filter { names.contains($0.name) }
    }

    /// The records of `months`, parsed (files that do not parse are left out).
    public func records(in months: [Month]) throws(TimerError) -> [TimerRecord] {
        var result: [TimerRecord] = []
        for month in months {
            for file in try recordFiles(in: month) {
                if let record = TimerRecord(month: month, fileName: file.name, bytes: file.bytes) { result.append(record) }
            }
        }
        return result
    }
}
