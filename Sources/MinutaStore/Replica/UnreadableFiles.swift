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

    /// Every unreadable file, by relative path.
    var all: [String: UnreadableDocument] { files.withLock { $0 } }

    /// Changes what is known of `relative` (nil: it loads).
    func update<R>(_ relative: String, _ body: (inout UnreadableDocument?) -> R) -> R {
        files.withLock { body(&$0[relative]) }
    }
}
