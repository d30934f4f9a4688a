import AutomergeKit
import MinutaStore
/// A time record as the pre-Automerge app kept it, one JSON file per record under
/// `records/YYYY/MM/` (seed 001): `{"id", "startTime", "endTime", "tagId", "comment", "images"}`.
public struct LegacyRecord: Sendable, Equatable {
    /// The record's UUID as the legacy file has it (the app writes it upper-case; SPEC 1 keeps
    /// what is stored). Compare ids with `RecordID`, which ignores case.
    public var id: String
    /// Milliseconds since the epoch.
    public var startTime: Int64
    /// Milliseconds since the epoch; `nil` for a running timer.
    public var endTime: Int64?
    /// The tag's UUID, upper-cased; `nil` when untagged.
    public var tagId: String?
    public var comment: String?
    /// File names of the record's images, in order, in its month folder.
    public var images: [String]
    /// Keys the legacy file held beyond the known ones, kept so nothing is lost.
    public var otherFields: [String: JSONValue]

    public init(
        id: String, startTime: Int64, endTime: Int64? = nil, tagId: String? = nil, comment: String? = nil,
        images: [String] = [], otherFields: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.startTime = startTime
        self.endTime = endTime
        self.tagId = tagId
        self.comment = comment
        self.images = images
        self.otherFields = otherFields
    }
}
