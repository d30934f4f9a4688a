/// What a mount holds that its tree does not have yet, for the tree's status file
/// (`FileTree.setPendingWorkReporter`).
public struct PendingWork: Sendable, Equatable {
    /// Open handles with unsaved changes, removals waiting out their delay, and files held in memory
    /// until they settle.
    public var count: Int
    /// Where the mount keeps what it acknowledged and has not yet given the tree (nil: nowhere but memory).
    public var journalFolder: String?
    /// One line per piece of work the journal holds (`rm /records/…`, `write /records/… (N bytes)`).
    public var journaled: [String]
    /// The paths of files removed (`rm`) whose removal waits out its delay: gone for every program
    /// already, so what the tree derives from them (a status bar's running timer) leaves them out.
    public var removals: Set<String>

    public init(count: Int = 0, journalFolder: String? = nil, journaled: [String] = [], removals: Set<String> = []) {
        self.count = count
        self.journalFolder = journalFolder
        self.journaled = journaled
        self.removals = removals
    }
}
