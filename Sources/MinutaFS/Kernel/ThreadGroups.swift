import Synchronization

/// The programs of the threads that made requests, remembered so that an `open` does not read
/// `/proc/TID/status` each time (`grep -r` opens every file once, from one thread).
///
/// A thread id is reused only after the kernel has handed out every other one (`pid_max`, 4 million
/// by default), and a reused id whose old program is remembered still names one program consistently:
/// at worst its reads are matched with reads of the program that had the id before. Bounded: the
/// table is emptied when it holds `capacity` threads.
final class ThreadGroups: Sendable {
    static let capacity = 4096

    private let known = Mutex<[Int32: ProgramID]>([:])

    /// The program of thread `threadID`; nil for 0 (no program).
    func program(ofThread threadID: Int32) -> ProgramID? {
        guard threadID > 0 else { return nil }
        if let program = known.withLock({ $0[threadID] }) { return program }
        guard let program = ProgramID(threadID: threadID) else { return nil }
        known.withLock { known in
            if known.count >= Self.capacity { known.removeAll(keepingCapacity: true) }
            known[threadID] = program
        }
        return program
    }
}
