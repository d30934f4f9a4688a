#if canImport(Glibc)
import Glibc
#endif

/// The backing folder, known by identity, not by path (SPEC 5b): the device and inode of the folder
/// the store was opened on. Once the folder at its path is another one (moved with `mv`, deleted,
/// replaced by a restore), the store writes nothing more, at the old path or anywhere: every write
/// fails with ``StoreError/backingFolderGone(_:)`` (EROFS through the mount), synchronization stops
/// bringing in files, and the first time it is noticed it goes to `.minutafs/errors`, the log and
/// `.minutafs/status`. What the store holds stays readable: listings and document reads follow the
/// folder the store was opened on (`readingPath`), so a moved store keeps showing what it showed.
struct BackingFolder: Sendable {
    /// Device and inode of a folder, following a link at its path (a store may be reached through one).
    struct Identity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64

        init?(path: String) {
            var raw = stat()
            guard stat(path, &raw) == 0, (raw.st_mode & S_IFMT) == S_IFDIR else { return nil }
            device = UInt64(raw.st_dev)
            inode = UInt64(raw.st_ino)
        }
    }

    /// The folder's absolute path.
    let path: String
    /// Its identity when the store was opened (nil: it could not be had; then it is never found gone).
    let identity: Identity?
    /// The folder itself, open, to read it once its path leads elsewhere.
    private let descriptor: BackingFolderDescriptor?
    private let events: StoreEvents
    /// The system-call failures a test makes this store see; nil outside tests.
    let faults: FaultInjection?

    init(path: String, events: StoreEvents, faults: FaultInjection? = nil) {
        self.path = path
        self.faults = faults
        self.identity = Identity(path: path)
        self.descriptor = identity == nil ? nil : BackingFolderDescriptor(path: path)
        self.events = events
    }

    /// Whether the folder at the store's path is still the one the store was opened on.
    var isPresent: Bool {
        guard let identity else { return true }
        return Identity(path: path) == identity
    }

    /// Where to read the folder from: its path while it is there, else the folder the store was opened
    /// on wherever it went (moved: what it holds keeps being shown, and written nowhere). Only reads
    /// may use it; writes go to `path`, after `require()`.
    var readingPath: String {
        guard !isPresent, let descriptor else { return path }
        return descriptor.path
    }

    /// Where the folder the store was opened on is now, when it was moved (nil: still at `path`,
    /// deleted, or not known).
    var movedTo: String? {
        guard !isPresent, let target = descriptor?.currentPath, target != path else { return nil }
        return target
    }

    /// Throws ``StoreError/backingFolderGone(_:)`` when the folder is not the one the store was opened
    /// on, noting it (once) for `.minutafs/errors`, status and the log. Every write calls it before it
    /// touches the folder.
    func require() throws(StoreError) {
        guard !isPresent else { return }
        events.noteBackingFolderGone(StoreError.backingFolderGone(path).description)
        throw .backingFolderGone(path)
    }
}
