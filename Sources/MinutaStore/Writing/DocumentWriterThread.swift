import CLinuxCalls
import Foundation
import Synchronization

/// The one thread of a store that runs every change of its documents (`Store.withDocumentWrites`), at a
/// lower CPU priority (`niceness`) than the threads that answer reads. On a busy machine a burst of saves
/// (a script rewriting many records) then yields the processor to `ls`, `cat` and `grep` instead of
/// sharing it evenly with them; a save is not delayed when nothing else wants the processor.
///
/// The caller waits for its change: `run` returns what the body returned, as if it ran on the caller's
/// thread. A change that starts another change runs it in place (the thread never waits for itself).
/// The thread ends when its owner (the store) goes.
final class DocumentWriterThread: Sendable {
    /// What the thread and its owner share; the thread holds only this, so the owner's deinit stops it.
    private final class Shared: Sendable {
        let jobs = Mutex<(waiting: [@Sendable () -> Void], isStopped: Bool)>(([], false))
        let wake = DispatchSemaphore(value: 0)
        /// `pthread_self()` of the writer thread once it runs (0 before).
        let threadID = Atomic<UInt>(0)
    }

    /// A job's body and result, handed to the writer thread while the caller waits for it: never used by
    /// two threads at once (the caller reads the result only after the thread signalled it is done).
    /// The thread lets go of the body before it signals: the caller's closure must not outlive `run`.
    private final class Handoff<Result>: @unchecked Sendable {
        private var body: (() -> Result)?
        private(set) var result: Result?

        init(_ body: @escaping () -> Result) { self.body = body }

        func runOnce() {
            result = body?()
            body = nil
        }
    }

    private let shared = Shared()

    init(niceness: Int32) {
        let shared = shared
        let thread = Thread {
            // Best effort: a system that refuses leaves the thread at the process's priority.
            _ = minutafs_lower_thread_priority(niceness)
            shared.threadID.store(UInt(pthread_self()), ordering: .releasing)
            while true {
                shared.wake.wait()
                let next = shared.jobs.withLock { jobs -> (job: (@Sendable () -> Void)?, stop: Bool) in
                    if jobs.waiting.isEmpty { return (nil, jobs.isStopped) }
                    return (jobs.waiting.removeFirst(), false)
                }
                if next.stop { return }
                next.job?()
            }
        }
        thread.name = "minutafs document writer"
        thread.start()
    }

    deinit {
        shared.jobs.withLock { $0.isStopped = true }
        shared.wake.signal()
    }

    /// Runs `body` on the writer thread and returns its result; the calling thread waits.
    func run<Result: Sendable>(_ body: () -> Result) -> Result {
        if shared.threadID.load(ordering: .acquiring) == UInt(pthread_self()) { return body() }
        return withoutActuallyEscaping(body) { escapable -> Result in
            let handoff = Handoff(escapable)
            let done = DispatchSemaphore(value: 0)
            shared.jobs.withLock {
                $0.waiting.append {
                    handoff.runOnce()
                    done.signal()
                }
            }
            shared.wake.signal()
            done.wait()
            // Set before `done` is signalled. Running the body again here would repeat a change of
            // documents, so a missing result is a broken invariant of this type, not a recoverable case.
            guard let result = handoff.result else { preconditionFailure("the document writer thread signalled a change done without its result") }
            return result
        }
    }
}
