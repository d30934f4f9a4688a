import Synchronization

/// The store's write lanes. Lock order
/// (docs/ARCHITECTURE.md, "Locks"): `StoreSynchronizer`'s pass lock, then the write lanes, then `state`, then the leaf locks
/// (`deletedMonths`, `publishedViews`, `events`, `unreadable`, `documentFiles`' `supersededValues`, the view cache's
/// trim clock), none of which is held while another is taken.
extension Store {
    /// Runs `body` on one of the store's writer threads (`DocumentWriters`, below the readers' CPU
    /// priority) holding the write lanes `claim` names (taken before `state`, never inside it): the
    /// change of those documents under way. Its file I/O runs with `state` released, so readers are not
    /// held up, and changes of other documents run beside it on other writers (`WriteLanes`).
    func withDocumentWrites<R: Sendable, E: Error>(_ claim: WriteClaim, _ body: () throws(E) -> R) throws(E) -> R {
        let result = writers.run { () -> Result<R, E> in
            do throws(E) { return .success(try writeLanes.run(claim, body)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// How many changes of documents had to wait for another in their write lane since the store opened.
    var writeLaneWaitCount: Int { writeLanes.waitCount }

    /// `withDocumentWrites` for a change that learns which documents it changes only as it runs (a record
    /// saved under a month but held by another, or moved to another): `body` is told what it holds and
    /// returns `.needs` (having written nothing) when it needs more (`WriteLanes.run(growing:_:)`).
    func withDocumentWrites<R: Sendable>(
        growing claim: WriteClaim, _ body: (WriteClaim) throws(StoreError) -> LaneOutcome<R>
    ) throws(StoreError) -> R {
        let result = writers.run { () -> Result<R, StoreError> in
            do throws(StoreError) { return .success(try writeLanes.run(growing: claim, body)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
