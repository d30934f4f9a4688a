import Synchronization

/// One lock per open file handle, held for the whole of a save of that handle (`FuseFileSystem.save`):
/// two closes of one handle at once (a program's and its forked child's) give the tree its bytes once,
/// and the second sees how the first went. Saves of other handles do not wait for it (the tree orders
/// its writes itself): a `release` that has nothing to save answers at once instead of holding one of
/// the kernel's worker threads behind a slow save, which would leave readers of other files without one.
final class HandleSaveLocks: Sendable {
    private final class HandleLock: Sendable {
        let mutex = Mutex(())
    }

    private struct Entry: Sendable {
        var lock: HandleLock
        /// Saves holding or waiting for the lock: the entry goes when the last one is done.
        var users: Int
    }

    private let entries = Mutex<[UInt64: Entry]>([:])

    /// Runs `body` holding `handle`'s lock.
    func withLock<E: Error>(handle: UInt64, _ body: () throws(E) -> Void) throws(E) {
        let lock = entries.withLock { entries -> HandleLock in
            var entry = entries[handle] ?? Entry(lock: HandleLock(), users: 0)
            entry.users += 1
            entries[handle] = entry
            return entry.lock
        }
        defer {
            entries.withLock { entries in
                guard var entry = entries[handle] else { return }
                entry.users -= 1
                entries[handle] = entry.users == 0 ? nil : entry
            }
        }
        try lock.mutex.withLock { (_: inout ()) throws(E) in try body() }
    }
}
