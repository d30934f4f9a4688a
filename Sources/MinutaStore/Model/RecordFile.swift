/// One record as a file of the mount: its name in the month folder, its id, its bytes and its time.
///
/// A value whose name, id and bytes are kept in one shared box: a month's view holds hundreds of them,
/// and a save copies that array to change one (the view is shared with readers), so each copy retains
/// one reference, not three. The time is kept beside the box: a save changes the time of every record
/// of its month (they show the document file's time), and setting it allocates nothing.
public struct RecordFile: Sendable, Equatable {
    private final class Storage: Sendable {
        let name: String
        let id: String
        let contents: [UInt8]

        init(name: String, id: String, contents: [UInt8]) {
            self.name = name
            self.id = id
            self.contents = contents
        }
    }

    private let storage: Storage

    public var name: String { storage.name }
    public var id: String { storage.id }
    public var contents: [UInt8] { storage.contents }
    /// Seconds since the epoch: when this process last saw the record change, else the
    /// document file's modification time.
    public var modificationTime: Int

    public init(name: String, id: String, contents: [UInt8], modificationTime: Int) {
        storage = Storage(name: name, id: id, contents: contents)
        self.modificationTime = modificationTime
    }

    public static func == (left: RecordFile, right: RecordFile) -> Bool {
        left.modificationTime == right.modificationTime
            && (left.storage === right.storage || (left.name == right.name && left.id == right.id && left.contents == right.contents))
    }
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
