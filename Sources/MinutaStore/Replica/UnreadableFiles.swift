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

    /// Whether `relative` was found not to load, whatever version is there now: such a file is not
    /// answered from the view cache, nor decoded ahead of a read (its next use looks at it).
    func isKnown(_ relative: String) -> Bool {
        self[relative] != nil
    }

    /// Whether the file at `relative`, now at `identity`, is another version than the one the store
    /// holds (`held`), or, for a file known not to load, than the version that did not load: the test a
    /// synchronization pass makes before merging it.
    func hasChanged(_ relative: String, to identity: BackingFiles.Identity, since held: BackingFiles.Identity?) -> Bool {
        if isKnown(relative) { return stillUnreadable(relative, identity: identity) == nil }
        return identity != held
    }

    /// Every unreadable file, by relative path.
    var all: [String: UnreadableDocument] { files.withLock { $0 } }

    /// Changes what is known of `relative` (nil: it loads).
    func update<R>(_ relative: String, _ body: (inout UnreadableDocument?) -> R) -> R {
        files.withLock { body(&$0[relative]) }
    }
}
