import MinutaStore

/// What a `TimerRequest` did: the records it started, stopped, left running or found running, or
/// the error that stopped it (nothing was written then). JSON, as a mount's `.minutafs/timer` answers.
public struct TimerAnswer: Codable, Sendable {
    /// A record as it was read: its month folder, file name and JSON.
    public struct Record: Codable, Sendable {
        public var month: String
        public var name: String
        public var json: String

        public init(_ record: TimerRecord) {
            month = record.month.yearSlashMonth
            name = record.fileName
            json = String(decoding: JSONWriter.pretty(record.json), as: UTF8.self)
        }

        public var timer: TimerRecord? {
            Month(yearSlashMonth: month).flatMap { TimerRecord(month: $0, fileName: name, bytes: Array(json.utf8)) }
        }
    }

    /// The error's line, when the action failed.
    public var error: String?
    /// Whether the error is that no timer runs (`stop`): exit status 1 as for any failure.
    public var idle: Bool?
    /// When the timer started or ended (`--at`, else the clock when the action was carried out).
    public var at: Int64?
    /// The id of the record `start` or `continue` created.
    public var startedID: String?
    /// The timer whose tag and comment `continue` started again.
    public var continued: Record?
    public var stopped: [Record] = []
    public var leftRunning: [Record] = []
    /// `now`: every running timer.
    public var running: [Record] = []

    public init() {}

    public init(error: TimerError) {
        self.error = error.description
        if case .noTimerRunning = error { idle = true }
    }
}
