import AutomergeKit
import MinutaStore
/// A legacy file, or one entry of it, that could not be read: the migration reports it and is
/// not complete until it is fixed.
public struct LegacyReadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, relative to the store (`tags.json`, `records/2024/01/2024-01-15_093000.json`).
    public var file: String
    /// What is wrong with it, for a person.
    public var reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): \(reason)" }
}
