import AutomergeKit
import MinutaStore
/// A legacy file, or one entry of it, that could not be read: the migration reports it and is
/// not complete until it is fixed.
public struct LegacyReadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, relative to the store (`tags.json`, `records/2024/01/2024-01-15_093000.json`).
    public var file: String
    /// What is wrong with it, for a person.
    public var reason: String
    /// Whether the file itself could not be opened or read (permissions, an I/O error), as
    /// opposed to read and found wrong: the backup cannot copy such a file either.
    public var isUnreadable: Bool

    public init(file: String, reason: String, isUnreadable: Bool = false) {
        self.file = file
        self.reason = reason
        self.isUnreadable = isUnreadable
    }

    public var description: String { "\(file): \(reason)" }
}
