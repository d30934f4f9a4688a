import Synchronization

/// The two store-wide locks and what happens as `state` is released. Lock order (docs/ARCHITECTURE.md,
/// "Locks"): `StoreSynchronizer`'s pass lock, then `documentWrites`, then `state`, then the leaf locks
/// (`deletedMonths`, `publishedViews`, `events`, `unreadable`, `documentFiles.supersededValues`, the view cache's
/// trim clock), none of which is held while another is taken.
extension Store {
    /// Runs `body` holding `state`. Before the lock is released, the month views the body changed are
    /// published to the readers that do not take it (`PublishedViews`); after, the view cache entries
    /// the body rendered are written, so no cache file is written under the lock.
    func withState<R: Sendable, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
        let (result, cacheWrites) = state.withLock { (state: inout State) -> (Result<R, E>, [(entry: MonthViewCache.Entry, key: [UInt8])]) in
            let result: Result<R, E>
            do throws(E) { result = .success(try body(&state)) } catch { result = .failure(error) }
            let changed = state.months.takeChangedMonths()
            let loadedCount = state.months.loaded.count + (state.tags == nil ? 0 : 1)
            if !changed.isEmpty || loadedCount != state.publishedLoadedCount {
                // Readers take this lock for every read: it is not taken when there is nothing new.
                publishedViews.publish(changed.map { ($0, state.months.view(of: $0)) }, loadedDocumentCount: loadedCount)
                state.publishedLoadedCount = loadedCount
            }
            defer { state.pendingCacheWrites = [] }
            return (result, state.pendingCacheWrites)
        }
        for write in cacheWrites { viewCache?.store(write.entry, for: write.key) }
        return try result.get()
    }

    /// Runs `body` holding `documentWrites` (taken before `state`, never inside it): the one change of
    /// documents under way. Its file I/O runs with `state` released, so readers are not held up, and it
    /// runs on the store's writer thread, below the CPU priority of reads (`DocumentWriterThread`).
    func withDocumentWrites<R: Sendable, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        let result = writer.run { () -> Result<R, E> in
            documentWrites.withLock { (_: inout ()) -> Result<R, E> in
                do throws(E) { return .success(try body()) } catch { return .failure(error) }
            }
        }
        return try result.get()
    }
}
