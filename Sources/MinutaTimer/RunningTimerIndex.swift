import Foundation
import MinutaStore
import SystemPackage

/// Which months of a store hold running timers (records without `endTime`), so that `now`, `stop` and
/// `start` see every running timer, however old, without reading every month (SPEC 10).
///
/// Kept in the state folder (`$XDG_STATE_HOME/minutafs/running-timers-KEY.json`, never the synced
/// folder), one file per store. Each month is remembered with the identity (size, modification time,
/// inode) of its document and of every conflict copy waiting beside it; a look lists `records/*/`
/// (cheap: a few folders) and reads again only the months whose files changed, appeared or went. A
/// missing or unreadable index file is rebuilt from the documents. The cost of a look grows with the
/// number of year folders, not with the records in them.
public struct RunningTimerIndex: Sendable, Equatable {
    /// A file's identity: a change of any part means the month is read again.
    public struct FileIdentity: Sendable, Equatable {
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
        var inode: UInt64
    }

    /// One month: its files (the document and its waiting copies, by name) and its running timers.
    public struct MonthEntry: Sendable, Equatable {
        var files: [String: FileIdentity]
        /// The record file names of the running timers, as the month's view names them when indexed.
        var running: [String]
    }

    var version = 1
    /// By `YYYY/MM`.
    var months: [String: MonthEntry] = [:]

    public init() {}

    /// The months with a running timer, in order.
    public var monthsWithRunningTimers: [Month] {
        months.compactMap { $0.value.running.isEmpty ? nil : Month(yearSlashMonth: $0.key) }.sorted()
    }

    /// The record file names of the running timers, by month.
    public var runningTimerFiles: [Month: [String]] {
        var result: [Month: [String]] = [:]
        for (key, entry) in months where !entry.running.isEmpty {
            if let month = Month(yearSlashMonth: key) { result[month] = entry.running }
        }
        return result
    }

    /// Whether `month` has a conflict copy waiting beside its document (as last looked).
    public func hasWaitingCopies(_ month: Month) -> Bool {
        guard let entry = months[month.yearSlashMonth] else { return false }
        return entry.files.keys.contains { $0 != month.monthName + ".automerge" }
    }

    /// The document files of the store at `storePath`, by month: `records/YYYY/MM.automerge` and the
    /// conflict copies of it (`MM (Phone's conflicted copy …).automerge`), with their identities.
    static func documentFiles(storePath: String) -> [Month: [String: FileIdentity]] {
        var result: [Month: [String: FileIdentity]] = [:]
        let records = storePath + "/records"
        guard let years = try? BackingFiles.listDirectory(records) else { return result }
        for year in years where Month.isYearName(year) {
            guard let names = try? BackingFiles.listDirectory(records + "/" + year) else { continue }
            for name in names where name.hasSuffix(".automerge") {
                let month: Month?
                if let own = Month(yearName: year, documentName: name) {
                    month = own
                } else if let copy = ConflictCopyName.match(name) {
                    month = Month(yearName: year, documentName: copy.primaryName)
                } else {
                    month = nil
                }
                guard let month, let status = BackingFiles.status(records + "/" + year + "/" + name), status.isRegularFile else { continue }
                result[month, default: [:]][name] = FileIdentity(
                    size: status.size, seconds: status.modificationSeconds, nanoseconds: status.modificationNanoseconds,
                    inode: status.identity.inode)
            }
        }
        return result
    }

    /// Brings the index up to date with the store's files: a month whose files changed is read again
    /// with `runningTimers` (the names of its running timers' record files); `everyMonth` reads every
    /// month again (a check when unsure). Returns whether anything changed.
    ///
    /// A month that cannot be read now (a document a sync tool is still delivering, SPEC 5a) keeps what
    /// the index last read of it, and is read again at the next refresh: the other months keep
    /// working. A month it never read fails the refresh: nothing can be said of the timers there.
    @discardableResult
    public mutating func refresh(
        storePath: String, everyMonth: Bool = false, runningTimers: (Month) throws(TimerError) -> [String]
    ) throws(TimerError) -> Bool {
        let files = Self.documentFiles(storePath: storePath)
        var updated: [String: MonthEntry] = [:]
        for (month, identities) in files {
            let key = month.yearSlashMonth
            if !everyMonth, let known = months[key], known.files == identities {
                updated[key] = known
            } else {
                do throws(TimerError) {
                    updated[key] = MonthEntry(files: identities, running: try runningTimers(month).sorted())
                } catch {
                    guard let known = months[key] else { throw error }
                    updated[key] = known
                }
            }
        }
        let changed = updated != months
        months = updated
        return changed
    }

    /// The index saved at `path`, or an empty one (every month is then read once) when it is missing,
    /// unreadable or of another version. (Read with the store's JSON parser: `JSONDecoder` cost a
    /// short command more than the rest of its look.)
    public static func load(from path: String) -> RunningTimerIndex {
        guard let data = FileManager.default.contents(atPath: path), let value = try? JSONParser.parse([UInt8](data)),
              case .integer(1)? = value["version"], case .object(let entries)? = value["months"] else { return RunningTimerIndex() }
        var index = RunningTimerIndex()
        for (key, entry) in entries {
            guard case .object(let fileList)? = entry["files"], case .array(let runningList)? = entry["running"] else { return RunningTimerIndex() }
            var files: [String: FileIdentity] = [:]
            for (name, identity) in fileList {
                guard case .array(let parts) = identity, parts.count == 4 else { return RunningTimerIndex() }
                let numbers = parts.compactMap { part -> Int64? in if case .integer(let number) = part { number } else { nil } }
                guard numbers.count == 4 else { return RunningTimerIndex() }
                files[name] = FileIdentity(size: numbers[0], seconds: Int(numbers[1]), nanoseconds: Int(numbers[2]), inode: UInt64(bitPattern: numbers[3]))
            }
            let running = runningList.compactMap { name -> String? in if case .string(let text) = name { text } else { nil } }
            guard running.count == runningList.count else { return RunningTimerIndex() }
            index.months[key] = MonthEntry(files: files, running: running)
        }
        return index
    }

    /// The index as JSON: `{"version": 1, "months": {"2024/11": {"files": {"11.automerge": [size,
    /// seconds, nanoseconds, inode]}, "running": ["2024-11-24_091500.json"]}}}`.
    var json: JSONValue {
        let entries: [(key: String, value: JSONValue)] = months.sorted { $0.key < $1.key }.map { key, entry in
            let files: [(key: String, value: JSONValue)] = entry.files.sorted { $0.key < $1.key }.map { name, identity in
                (name, .array([.integer(identity.size), .integer(Int64(identity.seconds)), .integer(Int64(identity.nanoseconds)),
                               .integer(Int64(bitPattern: identity.inode))]))
            }
            return (key, .object([("files", .object(files)), ("running", .array(entry.running.map(JSONValue.string)))]))
        }
        return .object([("version", .integer(Int64(version))), ("months", .object(entries))])
    }

    /// Saves the index at `path` (a temporary file renamed over it, so a reader never sees half of
    /// one). A failure is not an error of the command: the next look rebuilds what it needs.
    public func save(to path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = path + ".tmp-" + String(getpid())
        guard FileManager.default.createFile(atPath: temporary, contents: Data(JSONWriter.pretty(json))) else { return }
        if rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// Where the index of the store at `storePath` is kept in the state folder `stateFolder`.
    public static func path(stateFolder: String, storePath: String) -> String {
        stateFolder + "/running-timers-" + StoreLock.fileKey(for: FilePath(storePath)) + ".json"
    }
}
