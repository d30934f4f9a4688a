/// What changed in the tree other than through the mount's own request, as the tree reports it to the
/// handler of ``FileTree/setChangeHandler(_:)``.
public struct TreeChange: Sendable, Equatable {
    /// The paths whose contents, attributes or listings changed: a file's own path for its contents, the
    /// old and new paths of a file the tree renamed, a directory's path for its listing.
    public var paths: [String]
    /// Whether the tree knows that no name changed: every path it showed before shows still, as a file or a
    /// folder as before, and none was added. Only contents and attributes changed (a record's comment
    /// edited in place, the running timer's minute). The mount then keeps the names the kernel cached and
    /// drops only attributes and contents. False whenever the tree cannot tell.
    public var keepsNames: Bool

    public init(paths: [String], keepsNames: Bool = false) {
        self.paths = paths
        self.keepsNames = keepsNames
    }
}
