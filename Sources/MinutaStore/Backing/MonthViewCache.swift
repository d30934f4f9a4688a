import AutomergeKit
import Crypto
import Glibc
import Synchronization

/// Rendered month views kept between mounts, in `$XDG_CACHE_HOME/minutafs/views/`, never in
/// the synced folder: a remount of an unchanged store renders nothing and decodes no document until
/// one is edited, merged or asked for its conflicts.
///
/// An entry is found by the SHA-256 of the document file's bytes, the store's time zone,
/// ``formatVersion`` and sample records as this build renders them, so a changed file, another zone or
/// another renderer simply finds nothing. Each
/// entry carries a checksum of its contents and the key it was written for; one that is cut short,
/// damaged or written for another key is a miss (and is removed), never wrong output. Entries are
/// written without fsync (a cache entry lost in a crash costs one render) and the folder is kept
/// under ``sizeLimit`` by removing the entries least recently used.
struct MonthViewCache: Sendable {
    /// What an entry holds: the month's record files as rendered from the document, before any is left
    /// out as a copy shown in another month, and what parking the month needs.
    struct Entry: Sendable, Equatable {
        struct Record: Sendable, Equatable {
            var id: String
            var name: String
            var startTime: Int64?
            var contents: [UInt8]
        }

        var records: [Record]
        var hasConflicts: Bool
        var heads: [ChangeHash]
    }

    /// Bump when the rendering of records (`RecordView`, `RecordNaming`) or this format changes.
    static let formatVersion = 2
    private static let magic = Array("minutafs view cache\n".utf8)

    let folder: String
    let timeZone: String
    /// Sample records as this build renders them (`MonthViewCache.rendererFingerprint`), hashed into every key.
    let renderer: [UInt8]
    /// The most the folder holds, in bytes (the ten-year benchmark store's views take about 15 MB).
    let sizeLimit: Int
    /// How often, at most, the folder is measured (seconds).
    let trimInterval: Int
    private let lastTrim = TrimClock()

    private final class TrimClock: Sendable {
        let last = Mutex<Int>(0)
    }

    /// The cache in `cacheDirectory` (the mount passes `$XDG_CACHE_HOME/minutafs`), created if missing.
    init(cacheDirectory: String, timeZone: String, renderer: [UInt8] = [], sizeLimit: Int = 256 << 20, trimInterval: Int = 60) throws(StoreError) {
        folder = cacheDirectory + "/views"
        self.timeZone = timeZone
        self.renderer = renderer
        self.sizeLimit = sizeLimit
        self.trimInterval = trimInterval
        try BackingFiles.makeDirectories(folder)
        // The entries hold the records' contents: for the user alone, as the store's files are.
        chmod(folder, 0o700)
    }

    /// The key of a document file's view in this cache.
    func key(ofDocument bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: bytes)
        hasher.update(data: Array("\n\(timeZone)\n\(Self.formatVersion)\n".utf8))
        hasher.update(data: renderer)
        return Array(hasher.finalize())
    }

    private func path(of key: [UInt8]) -> String {
        folder + "/" + Self.hex(key) + ".view"
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The entry for `key`, or nil when there is none or it does not check out.
    func entry(for key: [UInt8]) -> Entry? {
        let path = path(of: key)
        guard let bytes = try? BackingFiles.read(path, limit: Store.maximumJSONFileSize * 4) else { return nil }
        guard let entry = Self.decode(bytes, key: key) else {
            try? BackingFiles.remove(path)
            return nil
        }
        // Used: the last to be removed when the folder is over its size.
        utimensat(AT_FDCWD, path, nil, 0)
        return entry
    }

    /// Stores `entry` for `key`; a cache that cannot be written is only slower.
    func store(_ entry: Entry, for key: [UInt8]) {
        let bytes = Self.encode(entry, key: key)
        guard (try? BackingFiles.writeWithoutSync(bytes, to: path(of: key))) != nil else { return }
        trimIfNeeded(adding: bytes.count)
    }

    // MARK: Format

    /// magic, key (32 bytes), checksum of the body (32 bytes), body length (8 bytes), body.
    static func encode(_ entry: Entry, key: [UInt8]) -> [UInt8] {
        var body: [UInt8] = []
        func append(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { body.append(contentsOf: $0) } }
        func append(_ bytes: [UInt8]) { append(UInt64(bytes.count)); body.append(contentsOf: bytes) }
        body.append(entry.hasConflicts ? 1 : 0)
        append(UInt64(entry.heads.count))
        for head in entry.heads { body.append(contentsOf: head.bytes) }
        append(UInt64(entry.records.count))
        for record in entry.records {
            append(Array(record.id.utf8))
            append(Array(record.name.utf8))
            if let start = record.startTime {
                body.append(1)
                append(UInt64(bitPattern: start))
            } else {
                body.append(0)
            }
            append(record.contents)
        }
        var output = magic + key + Array(SHA256.hash(data: body))
        withUnsafeBytes(of: UInt64(body.count).littleEndian) { output.append(contentsOf: $0) }
        return output + body
    }

    static func decode(_ bytes: [UInt8], key: [UInt8]) -> Entry? {
        var reader = Reader(bytes: bytes)
        guard reader.take(magic.count) == magic, reader.take(32) == key, let checksum = reader.take(32),
              let length = reader.integer(), length == UInt64(reader.remaining),
              let body = reader.take(Int(length)), Array(SHA256.hash(data: body)) == checksum else { return nil }
        var fields = Reader(bytes: body)
        guard let conflicts = fields.take(1), let headCount = fields.integer(), headCount <= UInt64(body.count / 32) else { return nil }
        var heads: [ChangeHash] = []
        for _ in 0..<headCount {
            guard let raw = fields.take(32), let head = ChangeHash(hexString: Self.hex(raw)) else { return nil }
            heads.append(head)
        }
        guard let recordCount = fields.integer(), recordCount <= UInt64(body.count) else { return nil }
        var records: [Entry.Record] = []
        records.reserveCapacity(Int(recordCount))
        for _ in 0..<recordCount {
            guard let id = fields.text(), let name = fields.text(), let hasStart = fields.take(1) else { return nil }
            var start: Int64?
            if hasStart == [1] {
                guard let value = fields.integer() else { return nil }
                start = Int64(bitPattern: value)
            }
            guard let contentLength = fields.integer(), let contents = fields.take(Int(clamping: contentLength)) else { return nil }
            records.append(Entry.Record(id: id, name: name, startTime: start, contents: contents))
        }
        guard fields.remaining == 0 else { return nil }
        return Entry(records: records, hasConflicts: conflicts == [1], heads: heads)
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        var remaining: Int { bytes.count - position }

        mutating func take(_ count: Int) -> [UInt8]? {
            guard count >= 0, count <= remaining else { return nil }
            defer { position += count }
            return Array(bytes[position..<position + count])
        }

        mutating func integer() -> UInt64? {
            guard let raw = take(8) else { return nil }
            return raw.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func text() -> String? {
            guard let length = integer(), let raw = take(Int(clamping: length)) else { return nil }
            return String(validating: raw, as: UTF8.self)
        }
    }

    // MARK: Size

    /// Removes the least recently used entries while the folder holds more than ``sizeLimit``. The
    /// folder is measured when an entry is written, at most once every ``trimInterval`` seconds.
    private func trimIfNeeded(adding size: Int) {
        let now = Int(time(nil))
        let due = lastTrim.last.withLock { last -> Bool in
            guard last == 0 || now - last >= trimInterval else { return false }
            last = now
            return true
        }
        guard due, let names = try? BackingFiles.listDirectory(folder) else { return }
        var entries: [(path: String, size: Int64, used: (Int, Int))] = []
        for name in names {
            let path = folder + "/" + name
            guard let status = BackingFiles.status(path), status.isRegularFile else { continue }
            // A temporary file a killed process left behind an hour ago or more.
            if BackingFiles.isTemporaryName(name) && now - status.modificationSeconds > 3600 { try? BackingFiles.remove(path); continue }
            guard name.hasSuffix(".view") else { continue }
            entries.append((path, status.size, (status.modificationSeconds, status.modificationNanoseconds)))
        }
        var total = entries.reduce(Int64(0)) { $0 + $1.size }
        for entry in entries.sorted(by: { $0.used < $1.used }) where total > Int64(sizeLimit) {
            try? BackingFiles.remove(entry.path)
            total -= entry.size
        }
    }
}
