/// What the program behind a save had read of the tree, as the mount saw it (SPEC 5b: a save is
/// compared with what its writer read).
///
/// The mount notes, per program (its thread group), when it opened each file of the tree for reading
/// and which file it read last; a save carries what the saving program read. The tree decides what a
/// save means from it: a program that read the file before another device's change was shown wrote
/// back what it read; one that read it after meant what it wrote; one that read a history snapshot
/// last is restoring it. `unknown` is a save whose program the mount cannot name or that read nothing.
public struct SaveOrigin: Sendable, Equatable {
    /// When the saving program last opened the saved path for reading, or last saved it (it then knows
    /// what the file holds); nil when the mount knows of no such read.
    public var readOfPath: ContinuousClock.Instant?
    /// The file of the tree the saving program read last, whatever its path (the source of a `cp`
    /// within the mount); nil when it read none.
    public var lastRead: TreeRead?
    /// The saving program created the file at this path through the mount (it was not there) and this is
    /// its first save. If the tree shows a file there by now, another writer put it there meanwhile (a
    /// record filed under that name): this save is not an edit of it.
    public var createsFile: Bool

    public init(readOfPath: ContinuousClock.Instant?, lastRead: TreeRead?, createsFile: Bool = false) {
        self.readOfPath = readOfPath
        self.lastRead = lastRead
        self.createsFile = createsFile
    }

    /// A save whose program's reads the mount does not know (`truncate` by path, a file settling).
    public static let unknown = SaveOrigin(readOfPath: nil, lastRead: nil)
}
