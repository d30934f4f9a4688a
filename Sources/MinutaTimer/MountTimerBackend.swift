import Foundation
import MinutaStore
import SystemPackage

/// Records read and written as files of a minutafs mount: the mount stays the one writer of its store,
/// and every change shows there at once.
public struct MountTimerBackend: TimerBackend {
    public let mountPoint: String
    public let timeZone: StoreTimeZone
    public var placeDescription: String { "the mount at \(mountPoint)" }

    /// The mount at `mountPoint`; its store's time zone is read from `.minutafs/status`.
    public init(mountPoint: String) throws(TimerError) {
        self.mountPoint = mountPoint
        let statusPath = mountPoint + "/.minutafs/status"
        let status = try Self.read(statusPath)
        let line = String(decoding: status, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("time zone: ") }
        guard let identifier = line.map({ String($0.dropFirst("time zone: ".count)) }), let zone = StoreTimeZone(identifier: identifier) else {
            throw .storeFailed(file: statusPath, reason: "no time zone line; is this a minutafs mount of this version?")
        }
        timeZone = zone
    }

    public func months() throws(TimerError) -> [Month] {
        let records = mountPoint + "/records"
        var result: [Month] = []
        for year in try Self.names(in: records) where Month.isYearName(year) {
            for month in try Self.names(in: records + "/" + year) {
                if let parsed = Month(yearName: year, monthName: month) { result.append(parsed) }
            }
        }
        return result.sorted()
    }

    public func recordFiles(in month: Month) throws(TimerError) -> [(name: String, bytes: [UInt8])] {
        let folder = mountPoint + "/records/" + month.yearSlashMonth
        guard FileManager.default.fileExists(atPath: folder) else { return [] }
        var files: [(name: String, bytes: [UInt8])] = []
        for name in try Self.names(in: folder) where name.hasSuffix(".json") {
            // A file gone since the listing (a removal, a move) is simply not there.
            guard let bytes = try? Self.read(folder + "/" + name) else { continue }
            files.append((name, bytes))
        }
        return files
    }

    public func tagsJSON() throws(TimerError) -> [UInt8] {
        try Self.read(mountPoint + "/tags.json")
    }

    public func write(_ bytes: [UInt8], named name: String, in month: Month) throws(TimerError) {
        try Self.save(bytes, to: mountPoint + "/records/" + month.yearSlashMonth + "/" + name, flags: O_WRONLY | O_TRUNC)
    }

    public func create(_ bytes: [UInt8], in month: Month) throws(TimerError) -> String {
        let folder = mountPoint + "/records/" + month.yearSlashMonth
        if !FileManager.default.fileExists(atPath: folder) {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw .storeFailed(file: folder, reason: "could not make the month folder: \(error.localizedDescription)")
            }
        }
        // A name no record has: the mount files the record by its start and gives it its own name; this
        // one shows it for a while, long enough to read its id back.
        let name = "minutafs-start-" + String(UInt32.random(in: 0...UInt32.max), radix: 16) + ".json"
        let path = folder + "/" + name
        try Self.save(bytes, to: path, flags: O_WRONLY | O_CREAT | O_EXCL)
        guard let record = TimerRecord(month: month, fileName: name, bytes: try Self.read(path)), let id = record.id else {
            throw .storeFailed(file: path, reason: "the new record could not be read back; look in \(mountPoint)/.minutafs/errors")
        }
        return id
    }

    static func names(in folder: String) throws(TimerError) -> [String] {
        do { return try FileManager.default.contentsOfDirectory(atPath: folder).sorted() } catch {
            throw .storeFailed(file: folder, reason: "cannot be listed: \(error.localizedDescription)")
        }
    }

    /// The whole file, read to its end whatever size `stat` gave when it was opened: a file the mount
    /// saves meanwhile (another command's new tag in `tags.json`) is read as one version, whole, never
    /// cut at its size before (a `tags.json` cut short does not parse, and every tag would be unknown).
    static func read(_ path: String) throws(TimerError) -> [UInt8] {
        do { return try DocumentFileAccess.read(FilePath(path)) } catch {
            if case .system(_, _, let code) = error { throw .storeFailed(file: path, reason: "cannot be read (\(code))") }
            throw .storeFailed(file: path, reason: "cannot be read (\(error))")
        }
    }

    /// Opens, writes, fsyncs and closes, each checked: the mount's answer to the save is the close's.
    static func save(_ bytes: [UInt8], to path: String, flags: Int32) throws(TimerError) {
        let descriptor = open(path, flags | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(path, "open", errno) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                throw failure(path, "write", code)
            }
            written += count
        }
        if fsync(descriptor) != 0 {
            let code = errno
            close(descriptor)
            throw failure(path, "fsync", code)
        }
        guard close(descriptor) == 0 else { throw failure(path, "close", errno) }
    }

    static func failure(_ path: String, _ call: String, _ code: Int32) -> TimerError {
        let hint = code == EINVAL ? "; the mount refused the record, see .minutafs/errors in the mount" : ""
        return .storeFailed(file: path, reason: "\(call) failed: \(String(cString: strerror(code)))\(hint)")
    }
}
