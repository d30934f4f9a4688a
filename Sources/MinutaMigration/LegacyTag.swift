import AutomergeKit
import MinutaStore
/// A tag as the pre-Automerge app kept it in `tags.json` (seed 001):
/// `{"id", "name", "color", "createdAt", "isArchived"}`.
public struct LegacyTag: Sendable, Equatable {
    /// The tag's UUID, upper-cased as the app's `uuidString` writes it.
    public var id: String
    public var name: String
    /// `#RRGGBB`, kept as written.
    public var color: String
    /// Milliseconds since the epoch.
    public var createdAt: Int64
    public var isArchived: Bool
    /// Keys the legacy file held beyond the known ones, kept so nothing is lost.
    public var otherFields: [String: JSONValue]

    public init(id: String, name: String, color: String, createdAt: Int64, isArchived: Bool, otherFields: [String: JSONValue] = [:]) {
        self.id = id
        self.name = name
        self.color = color
        self.createdAt = createdAt
        self.isArchived = isArchived
        self.otherFields = otherFields
    }
}
