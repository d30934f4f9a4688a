import AutomergeKit
import MinutaStore
#if canImport(Glibc)
import Glibc
#endif

/// Reads a legacy, pre-Automerge store (seed 001): `tags.json` (`{"tags": [...]}`), its sync
/// conflict copies (`tags (… conflicted copy …).json`, merged in), and one JSON file per record
/// under `records/YYYY/MM/`. A `.json` file anywhere else under `records/` is a failure with a
/// reason (``LegacyFileScan``), never skipped in silence. Dates may be ISO 8601 strings in any of the forms
/// ``ISO8601/milliseconds(from:)`` accepts, or integer milliseconds. A record's id is kept as the
/// file has it (SPEC 1); tag ids and `tagId` are upper-cased, as the app's `uuidString` writes them.
///
/// Nothing here stops at the first problem: every file that cannot be read, and every entry of
/// `tags.json` that cannot, becomes a ``LegacyReadFailure`` and the rest is still read.
public enum LegacyStoreReader {
    /// Whether `storePath` holds legacy JSON: a `tags.json` (or a conflict copy of it) or a
    /// `.json` file anywhere under `records/`.
    public static func isLegacyStore(_ storePath: String) throws(StoreError) -> Bool {
        let scan = try LegacyFileScan(storePath: storePath)
        return !scan.isEmpty || BackingFiles.status(storePath + "/tags.json")?.isRegularFile == true
    }

    /// The earliest instant an integer date may be, in milliseconds: 1990-01-01T00:00:00Z. An
    /// integer below it is seconds (since 1970 or since 2001) rather than milliseconds, and is
    /// refused rather than filed in January 1970.
    public static let earliestIntegerDate: Int64 = 631_152_000_000

    /// Reads the whole legacy store at `storePath`. `progress` is called with (files read, files in all).
    ///
    /// - Throws: ``StoreError`` only when a folder cannot be listed; unreadable files are in
    ///   ``LegacyStoreContents/failures``.
    public static func read(_ storePath: String, progress: (Int, Int) -> Void = { _, _ in }) throws(StoreError) -> LegacyStoreContents {
        var contents = LegacyStoreContents()
        let scan = try LegacyFileScan(storePath: storePath)
        let recordFiles = scan.recordFiles
        let total = recordFiles.count + 1
        if let status = BackingFiles.status(storePath + "/tags.json") {
            // A tags.json that is a link is refused by the scan, but it is there: not "no tags.json".
            contents.hasTagsFile = true
            if status.isRegularFile {
                contents.files.append("tags.json")
                readTags(storePath, file: "tags.json", into: &contents)
            }
        }
        for copy in scan.tagCopies {
            contents.files.append(copy)
            readTags(storePath, file: copy, into: &contents)
        }
        progress(1, total)
        var byID: [RecordID: Int] = [:]
        for (index, (file, month)) in recordFiles.enumerated() {
            contents.files.append(file)
            defer { progress(index + 2, total) }
            let record: LegacyRecord
            do {
                let bytes = try BackingFiles.read(storePath + "/" + file, followingSymbolicLinks: true)
                record = try Self.record(from: bytes)
            } catch let error as StoreError {
                contents.failures.append(Self.failure(file: file, error))
                continue
            } catch let error as LegacyReadFailure {
                contents.failures.append(LegacyReadFailure(file: file, reason: error.reason))
                continue
            } catch {
                contents.failures.append(LegacyReadFailure(file: file, reason: "\(error)"))
                continue
            }
            if let earlier = byID[RecordID(record.id)] {
                let first = contents.records[earlier]
                if first.record == record {
                    contents.notes.append("\(file): the same record as \(first.file); read once")
                } else {
                    contents.failures.append(LegacyReadFailure(
                        file: file, reason: "record \(record.id) is also in \(first.file) with different values; keep one of the two files"))
                }
                continue
            }
            byID[RecordID(record.id)] = contents.records.count
            contents.records.append(LegacyStoreContents.Entry(record: record, file: file, folder: month))
        }
        for refused in scan.refused {
            // A refused regular file is backed up (and removed by --cleanup once migrated); a link is not followed.
            if BackingFiles.status(storePath + "/" + refused.file)?.isRegularFile == true { contents.files.append(refused.file) }
            contents.failures.append(refused)
        }
        contents.otherFiles = scan.hidden + scan.otherFiles
        for hidden in scan.hidden {
            contents.notes.append("\(hidden): a hidden file (such as a macOS ._ file or an Office ~$ lock file, which the mount hides too); not read and not removed, but in the backup")
        }
        return contents
    }

    /// Reads the tags of `file` (`tags.json` or a conflict copy of it) into `contents`: a tag
    /// seen before with the same values is read once; with other values it is a failure, as two
    /// record files with one id are.
    private static func readTags(_ storePath: String, file: String, into contents: inout LegacyStoreContents) {
        let bytes: [UInt8]
        do {
            bytes = try BackingFiles.read(storePath + "/" + file, followingSymbolicLinks: true)
        } catch {
            contents.failures.append(Self.failure(file: file, error))
            return
        }
        let (tags, failures, otherFields) = Self.tagsFile(from: bytes)
        contents.failures += failures.map { LegacyReadFailure(file: file, reason: $0) }
        for key in otherFields.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let value = otherFields[key] else { continue }
            if let earlier = contents.tagsFileFields[key], earlier != value {
                contents.failures.append(LegacyReadFailure(
                    file: file, reason: "\"\(key)\" is also in \(contents.tagsFileFieldFiles[key] ?? "tags.json") with another value; keep the one you want in one of the two files"))
            } else if contents.tagsFileFields[key] == nil {
                contents.tagsFileFields[key] = value
                contents.tagsFileFieldFiles[key] = file
            }
        }
        for tag in tags {
            guard let earlier = contents.tags.firstIndex(where: { $0.id == tag.id }) else {
                contents.tags.append(tag)
                contents.tagFiles[tag.id] = file
                continue
            }
            let first = contents.tagFiles[tag.id] ?? "tags.json"
            if contents.tags[earlier] == tag {
                if first != file { contents.notes.append("\(file): tag \(tag.id) (\(tag.name)) is also in \(first) with the same values; read once") }
            } else if first == file {
                contents.failures.append(LegacyReadFailure(file: file, reason: "tag \(tag.id) appears twice"))
            } else {
                contents.failures.append(LegacyReadFailure(
                    file: file, reason: "tag \(tag.id) (\(tag.name)) is also in \(first) with different values; keep the one you want in one of the two files"))
            }
        }
    }

    /// A file that could not be read: a system error makes it ``LegacyReadFailure/isUnreadable``.
    static func failure(file: String, _ error: StoreError) -> LegacyReadFailure {
        guard case let .system(_, operation, code) = error else { return LegacyReadFailure(file: file, reason: error.description) }
        var reason = "cannot be read (\(operation) failed: \(String(cString: strerror(code.rawValue))))"
        if code.rawValue == EACCES || code.rawValue == EPERM {
            reason += "; make it readable for the user running migrate (chmod, chown), or run migrate as its owner"
        }
        return LegacyReadFailure(file: file, reason: reason, isUnreadable: true)
    }

    // MARK: Tags

    /// The tags of a `tags.json` and, for each entry that cannot be read, the reason.
    /// `{"tags": [...]}` is the app's layout; a bare array is accepted too.
    public static func tags(from bytes: [UInt8]) -> (tags: [LegacyTag], failures: [String]) {
        let file = tagsFile(from: bytes)
        return (file.tags, file.failures)
    }

    /// The tags of a `tags.json`, the reason for each entry that cannot be read, and the keys
    /// beside `"tags"` (`"version": 3`), which the migration keeps as root keys of the tags
    /// document (SPEC 1: keys the app may add later survive). A key whose value is an object is
    /// a failure: in the tags document a map at the root is a tag. So is a key that is a UUID.
    public static func tagsFile(from bytes: [UInt8]) -> (tags: [LegacyTag], failures: [String], otherFields: [String: JSONValue]) {
        let parsed: JSONValue
        do { parsed = try JSONParser.parse(bytes) } catch { return ([], [error.description], [:]) }
        let entries: [JSONValue]
        var otherFields: [String: JSONValue] = [:]
        var failures: [String] = []
        switch parsed {
        case .array(let array): entries = array
        case .object(let members):
            guard case .array(let array)? = parsed["tags"] else { return ([], ["expected {\"tags\": [ ... ]}"], [:]) }
            entries = array
            for member in members where !member.key.utf8.elementsEqual("tags".utf8) {
                if case .object = member.value {
                    failures.append("\"\(member.key)\" beside \"tags\" holds an object, which the tags document cannot keep apart from the tags; remove it (the backup keeps it) or make it a plain value")
                } else if UUIDText.isValid(member.key) {
                    failures.append("\"\(member.key)\" beside \"tags\" is a UUID, which the tags document would take for a tag; put that tag into the \"tags\" list")
                } else {
                    otherFields[member.key] = member.value
                }
            }
        default:
            return ([], ["expected {\"tags\": [ ... ]}"], [:])
        }
        var tags: [LegacyTag] = []
        for (index, entry) in entries.enumerated() {
            do {
                tags.append(try tag(from: entry))
            } catch {
                failures.append("tag \(index + 1): \(error.reason)")
            }
        }
        return (tags, failures, otherFields)
    }

    static func tag(from value: JSONValue) throws(LegacyReadFailure) -> LegacyTag {
        guard case .object(let members) = value else { throw failure("expected an object") }
        let id = try uuid(members, "id", required: true) ?? ""
        guard case .string(let name)? = field(members, "name") else { throw failure("\"name\": expected a string") }
        var color = "#808080"
        if let value = field(members, "color") {
            guard case .string(let text) = value else { throw failure("\"color\": expected a string such as \"#4A90D9\"") }
            color = text
        }
        guard let createdAt = try date(members, "createdAt") else { throw failure("\"createdAt\" is required") }
        var isArchived = false
        if let value = field(members, "isArchived") {
            guard case .bool(let flag) = value else { throw failure("\"isArchived\": expected true or false") }
            isArchived = flag
        }
        return LegacyTag(id: id, name: name, color: color, createdAt: createdAt, isArchived: isArchived,
                         otherFields: others(members, known: TagView.knownKeys))
    }

    // MARK: Records

    /// One record file.
    ///
    /// - Throws: ``LegacyReadFailure`` (with an empty `file`) saying what is wrong.
    public static func record(from bytes: [UInt8]) throws(LegacyReadFailure) -> LegacyRecord {
        let parsed: JSONValue
        do { parsed = try JSONParser.parse(bytes) } catch { throw failure(error.description) }
        guard case .object(let members) = parsed else { throw failure("expected a JSON object with the record's fields") }
        // The id as the file has it (SPEC 1: keep what is stored); RecordID compares any case.
        let id = try uuid(members, RecordField.id.key, required: true, keepingCase: true) ?? ""
        guard let startTime = try date(members, RecordField.startTime.key) else { throw failure("\"startTime\" is required") }
        let endTime = try date(members, RecordField.endTime.key)
        let tagId = try uuid(members, RecordField.tagId.key, required: false)
        var comment: String?
        switch field(members, RecordField.comment.key) {
        case nil, .null?: comment = nil
        case .string(let text)?: comment = text
        default: throw failure("\"comment\": expected a string")
        }
        var images: [String] = []
        switch field(members, RecordField.images.key) {
        case nil, .null?: break
        case .array(let elements)?:
            for element in elements {
                guard case .string(let name) = element else { throw failure("\"images\": expected an array of file names") }
                guard FieldRule.isValidFileName(name) else {
                    throw failure("\"images\": \"\(name)\" is not a plain file name (no '/', no '..', not empty)")
                }
                images.append(name)
            }
        default: throw failure("\"images\": expected an array of file names")
        }
        return LegacyRecord(id: id, startTime: startTime, endTime: endTime, tagId: tagId, comment: comment, images: images,
                            otherFields: others(members, known: RecordView.knownKeys))
    }

    // MARK: Fields

    private static func failure(_ reason: String) -> LegacyReadFailure { LegacyReadFailure(file: "", reason: reason) }

    private static func field(_ members: [(key: String, value: JSONValue)], _ key: String) -> JSONValue? {
        members.first { $0.key.utf8.elementsEqual(key.utf8) }?.value
    }

    private static func uuid(_ members: [(key: String, value: JSONValue)], _ key: String, required: Bool, keepingCase: Bool = false) throws(LegacyReadFailure) -> String? {
        switch field(members, key) {
        case nil, .null?:
            if required { throw failure("\"\(key)\" is required") }
            return nil
        case .string(let text)? where UUIDText.isValid(text):
            return keepingCase ? text : RecordID(text).text
        case let value?:
            throw failure("\"\(key)\": expected a UUID string such as \"550E8400-E29B-41D4-A716-446655440000\", found \(brief(value))")
        }
    }

    private static func date(_ members: [(key: String, value: JSONValue)], _ key: String) throws(LegacyReadFailure) -> Int64? {
        guard let value = field(members, key), value != .null else { return nil }
        let milliseconds: Int64
        do {
            milliseconds = try FieldRule.milliseconds(value, field: key)
        } catch {
            throw failure("\(error), found \(brief(value))")
        }
        if case .integer(let number) = value, number < earliestIntegerDate {
            throw failure("\"\(key)\": \(number) is not a plausible time in milliseconds (it would be before 1990; seconds since 1970 or since 2001?); write it as an ISO 8601 date such as \"2024-01-15T09:30:00Z\"")
        }
        return milliseconds
    }

    private static func others(_ members: [(key: String, value: JSONValue)], known: [String]) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for member in members where !known.contains(where: { $0.utf8.elementsEqual(member.key.utf8) }) && member.value != .null {
            result[member.key] = member.value
        }
        return result
    }

    /// A short rendering of a value for messages.
    private static func brief(_ value: JSONValue) -> String {
        let text = String(decoding: JSONWriter.pretty(value).dropLast(), as: UTF8.self)
            .split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }.joined(separator: " ")
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }
}
