import FileTreeInterface

/// `now.json` or `now.txt` as rendered: its contents, and when they were rendered (their modification
/// time, later for every rendering, so the kernel's pages are kept only while the contents are the same).
public struct NowFile: Sendable {
    public var contents: [UInt8]
    public var renderedAt: TreeTime
    /// Rendered for the change token it was asked with (`StoreView.changeToken`): it stays as it is until
    /// the mount reports a change. False for an error line, rendered again at every read.
    public var followsReports: Bool

    public init(contents: [UInt8], renderedAt: TreeTime, followsReports: Bool) {
        self.contents = contents
        self.renderedAt = renderedAt
        self.followsReports = followsReports
    }
}
