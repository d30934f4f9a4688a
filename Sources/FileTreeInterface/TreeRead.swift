/// A program's read of a file of the tree: which file, and when the mount served it (an `open` for
/// reading, or the first read of a handle). Instants are of `ContinuousClock`, the clock the tree
/// compares them with.
public struct TreeRead: Sendable, Equatable {
    public var path: String
    public var instant: ContinuousClock.Instant

    public init(path: String, instant: ContinuousClock.Instant) {
        self.path = path
        self.instant = instant
    }
}
