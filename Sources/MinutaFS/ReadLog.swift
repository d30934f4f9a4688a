import FileTreeInterface

/// Which files of the tree each program read, and when (SPEC 5b: a save is compared with what its
/// writer read). Part of the mount's state, under its lock.
///
/// A read is an `open` of a file of the tree for reading (with the kernel's page cache, a later read
/// may never reach the mount, but the open does, and it serves the version of that moment), the first
/// read of a handle's contents, or a save (the program then knows what the file holds). A save by
/// rename is written by a handle that never read the file: its program's reads of the destination
/// say what it read. Bounded: the oldest reads are forgotten beyond `capacity`.
struct ReadLog {
    private struct Key: Hashable {
        var program: ProgramID
        var path: ExactPath
    }

    /// How many reads are remembered.
    static let capacity = 4096

    private var reads: [Key: ContinuousClock.Instant] = [:]
    private var lastRead: [ProgramID: TreeRead] = [:]

    /// Notes that `program` read `path` at `instant` (a later read of the same path replaces it).
    mutating func noteRead(of path: String, by program: ProgramID, at instant: ContinuousClock.Instant) {
        let key = Key(program: program, path: ExactPath(path))
        if let earlier = reads[key], earlier > instant { return }
        reads[key] = instant
        if (lastRead[program]?.instant).map({ $0 <= instant }) ?? true {
            lastRead[program] = TreeRead(path: path, instant: instant)
        }
        if reads.count > Self.capacity { forgetOldest() }
    }

    /// What `program` had read when it saves `path`; `.unknown` without a program.
    func origin(ofSaveTo path: String, by program: ProgramID?) -> SaveOrigin {
        guard let program else { return .unknown }
        return SaveOrigin(readOfPath: reads[Key(program: program, path: ExactPath(path))], lastRead: lastRead[program])
    }

    /// The origin of a save several programs stand behind (the one closing a handle and the one that
    /// opened it): the first that read `path`, else the first that read anything.
    func origin(ofSaveTo path: String, byAnyOf programs: [ProgramID]) -> SaveOrigin {
        let origins = programs.map { origin(ofSaveTo: path, by: $0) }
        return origins.first { $0.readOfPath != nil } ?? origins.first { $0.lastRead != nil } ?? .unknown
    }

    /// Drops the older half of the reads (a program that read them long ago and saves now is one
    /// whose reads the mount does not know).
    private mutating func forgetOldest() {
        let instants = reads.values.sorted()
        let cut = instants[instants.count / 2]
        reads = reads.filter { $0.value >= cut }
        lastRead = lastRead.filter { $0.value.instant >= cut }
    }
}
