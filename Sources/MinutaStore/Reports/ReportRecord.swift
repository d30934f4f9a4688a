/// One record as the reports see it: read from the JSON its file shows, so a report always agrees
/// with the record files of the mount.
public struct ReportRecord: Sendable, Equatable {
    public var id: String
    /// Milliseconds since the epoch; `nil` when the record has no usable startTime.
    public var start: Int64?
    /// Milliseconds since the epoch; `nil` for a running timer (no endTime, or `null`).
    public var end: Int64?
    public var tagID: String?
    public var comment: String
    public var imageCount: Int

    public init(id: String, start: Int64?, end: Int64?, tagID: String?, comment: String, imageCount: Int) {
        self.id = id
        self.start = start
        self.end = end
        self.tagID = tagID
        self.comment = comment
        self.imageCount = imageCount
    }

    /// The record a record file's JSON object shows (`RecordView.json`); `nil` if it is not an object.
    public init?(json: JSONValue) {
        guard case .object = json else { return nil }
        guard case .string(let id)? = json[RecordField.id.key] else { return nil }
        self.id = id
        start = Self.instant(json[RecordField.startTime.key])
        end = Self.instant(json[RecordField.endTime.key])
        if case .string(let tag)? = json[RecordField.tagId.key], !tag.isEmpty { tagID = tag } else { tagID = nil }
        if case .string(let text)? = json[RecordField.comment.key] { comment = text } else { comment = "" }
        if case .array(let images)? = json[RecordField.images.key] { imageCount = images.count } else { imageCount = 0 }
    }

    private static func instant(_ value: JSONValue?) -> Int64? {
        switch value {
        case .string(let text)?: ISO8601.milliseconds(from: text)
        case .integer(let milliseconds)?: milliseconds
        default: nil
        }
    }
}
