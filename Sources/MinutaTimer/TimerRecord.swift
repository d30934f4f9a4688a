import MinutaStore

/// A record as the timer commands see it: one record file of a month folder, parsed. A record without
/// `endTime` is a running timer (SPEC 1).
public struct TimerRecord: Sendable {
    /// The month folder the record is shown in, and its file name there.
    public var month: Month
    public var fileName: String
    public var id: String?
    public var startTime: Int64?
    public var endTime: Int64?
    public var tagID: String?
    public var comment: String?
    /// The file's JSON, as read: a change is made to it and written back, every other key as it was.
    public var json: JSONValue

    public var isRunning: Bool { endTime == nil && startTime != nil }

    /// Parses a record file; nil for bytes that are not a record's JSON object.
    public init?(month: Month, fileName: String, bytes: [UInt8]) {
        guard let value = try? JSONParser.parse(bytes), case .object = value else { return nil }
        self.month = month
        self.fileName = fileName
        json = value
        if case .string(let text)? = value[RecordField.id.key] { id = text }
        startTime = Self.milliseconds(value[RecordField.startTime.key])
        endTime = Self.milliseconds(value[RecordField.endTime.key])
        if case .string(let text)? = value[RecordField.tagId.key] { tagID = text }
        if case .string(let text)? = value[RecordField.comment.key] { comment = text }
    }

    static func milliseconds(_ value: JSONValue?) -> Int64? {
        switch value {
        case .string(let text)?: ISO8601.milliseconds(from: text)
        case .integer(let number)?: number
        default: nil
        }
    }

    /// The record's JSON with `endTime` set, every other key as it was.
    public func stopped(at milliseconds: Int64) -> [UInt8] {
        guard case .object(var members) = json else { return JSONWriter.pretty(json) }
        let end = JSONValue.string(ISO8601.string(milliseconds: milliseconds))
        if let index = members.firstIndex(where: { $0.key == RecordField.endTime.key }) {
            members[index].value = end
        } else if let start = members.firstIndex(where: { $0.key == RecordField.startTime.key }) {
            members.insert((key: RecordField.endTime.key, value: end), at: start + 1)
        } else {
            members.append((key: RecordField.endTime.key, value: end))
        }
        return JSONWriter.pretty(.object(members))
    }

    /// A new running timer's JSON: no `id` (the store gives it one), `startTime`, the tag and comment.
    public static func newTimer(start: Int64, tagID: String?, comment: String?) -> [UInt8] {
        var members: [(key: String, value: JSONValue)] = [(RecordField.startTime.key, .string(ISO8601.string(milliseconds: start)))]
        if let tagID { members.append((RecordField.tagId.key, .string(tagID))) }
        if let comment { members.append((RecordField.comment.key, .string(comment))) }
        members.append((RecordField.images.key, .array([])))
        return JSONWriter.pretty(.object(members))
    }
}
