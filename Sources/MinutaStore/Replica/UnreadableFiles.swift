import Synchronization

/// The document files of the store that do not load, and what is known of each (SPEC 5a), by relative
/// path. A lock of its own, taken alone or inside any other and never around another: a save that finds
/// its file unreadable notes it without holding up readers of other documents.
final class UnreadableFiles: Sendable {
    private let files = Mutex<[String: UnreadableDocument]>([:])

    /// What is known of `relative`; nil when it loads (or was never found unreadable).
    subscript(relative: String) -> UnreadableDocument? {
        files.withLock { $0[relative] }
    }

    /// What is known of `relative` if the file there is still the version found not to load (`identity`:
    /// the file's now, nil when there is none); nil when it loads, was never found unreadable, or was
    /// replaced since. The one test of "known unreadable and unchanged": such a file is neither read
    /// again, nor written over.
    func stillUnreadable(_ relative: String, identity: BackingFiles.Identity?) -> UnreadableDocument? {
        guard let known = self[relative], known.identity == identity else { return nil }
        return known
    }

    /// Every unreadable file, by relative path.
    var all: [String: UnreadableDocument] { files.withLock { $0 } }

    /// Changes what is known of `relative` (nil: it loads).
    func update<R>(_ relative: String, _ body: (inout UnreadableDocument?) -> R) -> R {
        files.withLock { body(&$0[relative]) }
    }
}
