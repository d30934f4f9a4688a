import CLinuxCalls
import Foundation
import Synchronization

/// The threads every change of documents runs on (`Store.withDocumentWrites`), at a lower CPU priority
/// (`niceness`) than the threads that answer reads: on a busy machine a burst of saves (a script
/// rewriting many records) then yields the processor to `ls`, `cat` and `grep` instead of sharing it
/// evenly with them; a save is not delayed when nothing else wants the processor. A thread cannot take
/// its priority back once lowered (without privileges), so the changes are handed to these threads
/// rather than lowering the caller's: one hand-off a change, the price of keeping reads fast during a burst of saves.
///
/// There are `count` of them, so changes of different months still run at once, each in its own write
/// lanes (`WriteLanes`), taken on the writer thread. Every lane held is held by a running writer, so
/// writers waiting for lanes always wait for one that is running: no change waits for a thread.
///
/// The caller waits for its change: `run` returns what the body returned, as if it ran on the caller's
/// thread. A change that starts another change runs it in place (a writer never waits for itself).
/// The threads start with the first change and end when their owner (the store) goes.
final class DocumentWriters: Sendable {
    /// What the threads and their owner share; the threads hold only this, so the owner's deinit stops them.
    private final class Shared: Sendable {
        let jobs = Mutex<(waiting: [@Sendable () -> Void], isStopped: Bool, areStarted: Bool)>(([], false, false))
        let wake = DispatchSemaphore(value: 0)
        /// `pthread_self()` of each writer thread once it runs.
        let threadIDs = Mutex<Set<UInt>>([])
    }

    /// A job's body and result, handed to a writer while the caller waits for it: never used by two
    /// threads at once (the caller reads the result only after the writer signalled it is done). The
    /// writer lets go of the body before it signals: the caller's closure must not outlive `run`.
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
    private let count: Int

    private let niceness: Int32

    /// Writers that start with the first change (`run`): a store that only reads (`minutafs now`, a
    /// report) starts no thread.
    init(count: Int, niceness: Int32) {
        self.count = count
        self.niceness = niceness
    }

    /// Starts the threads, the first time only.
    private func startThreads() {
        guard shared.jobs.withLock({ jobs -> Bool in
            defer { jobs.areStarted = true }
            return !jobs.areStarted
        }) else { return }
        for index in 0..<count {
            let shared = shared
            let niceness = niceness
            let thread = Thread {
                // Best effort: a system that refuses leaves the thread at the process's priority.
                _ = minutafs_lower_thread_priority(niceness)
                shared.threadIDs.withLock { _ = $0.insert(UInt(pthread_self())) }
                while true {
                    shared.wake.wait()
                    let next = shared.jobs.withLock { jobs -> (job: (@Sendable () -> Void)?, stop: Bool) in
                        if jobs.waiting.isEmpty { return (nil, jobs.isStopped) }
                        return (jobs.waiting.removeFirst(), false)
                    }
                    if next.stop {
                        shared.wake.signal()  // the next writer stops too
                        return
                    }
                    next.job?()
                }
            }
            thread.name = "minutafs writer \(index + 1)"
            thread.start()
        }
    }

    deinit {
        shared.jobs.withLock { $0.isStopped = true }
        shared.wake.signal()
    }

    /// Runs `body` on a writer thread and returns its result; the calling thread waits.
    func run<Result: Sendable>(_ body: () -> Result) -> Result {
        if shared.threadIDs.withLock({ $0.contains(UInt(pthread_self())) }) { return body() }
        startThreads()
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
            guard let result = handoff.result else { preconditionFailure("a document writer signalled a change done without its result") }
            return result
        }
    }
}
