import MinutaStore

/// What a `TimerRequest` did: the records it started, stopped, left running or found running, or
/// the error that stopped it (nothing was written then). JSON, as a mount's `.minutafs/timer` answers.
public struct TimerAnswer: Codable, Sendable {
    /// A record as it was read: its month folder, file name and JSON.
    public struct Record: Codable, Sendable, Equatable {
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
    /// The id of the record `start`, `continue` or `track` created, and its month (`YYYY/MM`).
    public var startedID: String?
    public var startedMonth: String?
    /// The name of the tag `start --tag` or `track --tag` chose (or created).
    public var tagName: String?
    /// `created tag Reading (#4E79A7)` when `start --tag` created the tag.
    public var createdTag: String?
    /// What `--adjust` changed, a line each.
    public var adjustments: [String] = []
    /// The documents the action changed, with their heads before and after it: what `minutafs undo`
    /// sets back, through the documents' history. Kept also when a later step failed.
    public var documents: [DocumentHeads] = []
    /// The timer whose tag and comment `continue` started again.
    public var continued: Record?
    public var stopped: [Record] = []
    public var leftRunning: [Record] = []
    /// The record `cancel` removed, as it was.
    public var removed: Record?
    /// The record `annotate` changed, as it was.
    public var annotated: Record?
    /// `undo`: a line for each change set back.
    public var lines: [String] = []
    /// `undo`: a line for each record or tag left as it is, because it changed again since the action.
    public var left: [String] = []
    /// `now`: every running timer.
    public var running: [Record] = []

    public init() {}

    public init(error: TimerError) {
        self.error = error.description
        if case .noTimerRunning = error { idle = true }
    }
}
