/// One record as a file of the mount: its name in the month folder, its id and its bytes.
public struct RecordFile: Sendable, Equatable {
    public let name: String
    public let id: String
    public let contents: [UInt8]
    /// Seconds since the epoch: when this process last saw the record change, else the
    /// document file's modification time.
    public let modificationTime: Int
}

/// The record files of one month document, computed once per document state.
struct MonthView: Sendable {
    var files: [RecordFile]
    /// The startTime each file's name was made from (milliseconds), in the order of `files`.
    var startTimes: [Int64?]
    var indexByName: [String: Int]
    var indexByID: [RecordID: Int]

    init(files: [RecordFile], startTimes: [Int64?]) {
        self.files = files
        self.startTimes = startTimes
        indexByName = Dictionary(files.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        indexByID = Dictionary(files.enumerated().map { (RecordID($1.id), $0) }, uniquingKeysWith: { first, _ in first })
    }
}
