import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The store's write lanes: every change of documents runs holding the lanes it claims (`WriteClaim`),
/// on the caller's own thread. Changes whose claims share no lane run at once (a save of March beside a
/// save of April, each with its own fsyncs); changes whose claims meet run one at a time, in the order
/// they asked (a claim never overtakes an earlier waiting claim it meets), so saves of one month stay
/// ordered and a whole-store change is not starved by a stream of month saves.
///
/// A change that starts another change on the same thread runs it in place when what it holds covers
/// the new claim. One that needs more than it holds must end and ask again with the union
/// (`Store.withDocumentWrites` does, through `WriteLanes.MoreNeeded`): asking while holding could wait
/// for a change that waits for it.
///
/// The uncontended path is one lock and unlock of `state` to enter and one to leave: no thread hand-off.
final class WriteLanes: Sendable {
    /// Thrown (as the body's result) by a change that found it needs lanes it does not hold: the change
    /// is run again from the start holding `claim` too. It must not have written anything yet.
    struct MoreNeeded: Error, Sendable {
        let claim: WriteClaim
    }

    private struct Waiter {
        let thread: pthread_t
        let claim: WriteClaim
        let wake: DispatchSemaphore
    }

    private struct Held {
        var running: [(thread: pthread_t, claim: WriteClaim)] = []
        var waiting: [Waiter] = []

        func fits(_ claim: WriteClaim, ahead: ArraySlice<Waiter>) -> Bool {
            running.allSatisfy { $0.claim.isDisjoint(with: claim) } && ahead.allSatisfy { $0.claim.isDisjoint(with: claim) }
        }

        func claim(of thread: pthread_t) -> WriteClaim? {
            running.first { pthread_equal($0.thread, thread) != 0 }?.claim
        }
    }

    /// The changes running and waiting; held only to look and to mark, never while a change runs.
    private let state = Mutex(Held())

    /// The number of changes that had to wait for another (for status and tests).
    private let waits = Atomic<Int>(0)

    var waitCount: Int { waits.load(ordering: .relaxed) }

    /// Runs `body` holding `claim`, on this thread, once no running or earlier waiting change meets it.
    func run<R, E: Error>(_ claim: WriteClaim, _ body: () throws(E) -> R) throws(E) -> R {
        let me = pthread_self()
        let entry = state.withLock { held -> LaneEntry in
            if let mine = held.claim(of: me) {
                // A nested change this thread's change covers runs in place. One it does not cover could
                // wait for a change that waits for this one: the store asks again instead (`MoreNeeded`).
                precondition(mine.covers(claim), "a change holding \(mine) asked for \(claim) without ending first")
                return .inPlace
            }
            if held.fits(claim, ahead: held.waiting[...]) {
                held.running.append((me, claim))
                return .granted
            }
            let wake = DispatchSemaphore(value: 0)
            held.waiting.append(Waiter(thread: me, claim: claim, wake: wake))
            return .wait(wake)
        }
        switch entry {
        case .inPlace:
            return try body()
        case .granted:
            break
        case .wait(let wake):
            waits.add(1, ordering: .relaxed)
            // The releasing thread marks this claim running before it wakes this one.
            wake.wait()
        }
        defer { release(me) }
        return try body()
    }

    /// `run` for a change that learns which documents it changes only as it runs (a record saved under a
    /// month but held by another, or moved to another): `body` is told what it holds and returns `.needs`
    /// (having written nothing) when it needs more; its lanes are then released and it runs again from the
    /// start holding both. A change that asks again for what it holds would ask forever: it gets the whole store.
    func run<R>(growing claim: WriteClaim, _ body: (WriteClaim) throws(StoreError) -> LaneOutcome<R>) throws(StoreError) -> R {
        var held = claim
        while true {
            let current = held
            switch try run(current, { () throws(StoreError) -> LaneOutcome<R> in try body(current) }) {
            case .done(let result):
                return result
            case .needs(let more):
                held = current.covers(more) ? .wholeStore : current.union(more)
            }
        }
    }

    /// How a change enters: in place (its thread already holds what it claims), at once, or after waiting.
    private enum LaneEntry {
        case inPlace, granted, wait(DispatchSemaphore)
    }

    /// Ends this thread's change and starts the waiting changes that now fit, first come first.
    private func release(_ thread: pthread_t) {
        let woken = state.withLock { held -> [DispatchSemaphore] in
            if let index = held.running.firstIndex(where: { pthread_equal($0.thread, thread) != 0 }) {
                held.running.remove(at: index)
            }
            var woken: [DispatchSemaphore] = []
            var index = 0
            while index < held.waiting.count {
                let waiter = held.waiting[index]
                if held.fits(waiter.claim, ahead: held.waiting[..<index]) {
                    held.waiting.remove(at: index)
                    held.running.append((waiter.thread, waiter.claim))
                    woken.append(waiter.wake)
                } else {
                    index += 1
                }
            }
            return woken
        }
        for wake in woken { wake.signal() }
    }
}
