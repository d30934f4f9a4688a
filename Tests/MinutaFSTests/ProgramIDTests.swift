import CLinuxCalls
import Foundation
import Synchronization
import Testing

@testable import MinutaFS

/// A request's thread stands for its program, the thread group `ps` shows: a process's first thread is
/// known by `pidfd_open` alone, any other thread by `/proc/TID/status`, and both ways agree.
struct ProgramIDTests {
    @Test("the thread that leads a process is its program, without reading /proc")
    func leadingThread() throws {
        let process = getpid()
        #expect(minutafs_is_thread_group_leader(process) == 1)
        #expect(ProgramID(threadID: process)?.threadGroup == process)
        #expect(ProgramID.threadGroup(ofThread: process) == process)
    }

    @Test("another thread of a process stands for the process that runs it")
    func otherThread() throws {
        let started = DispatchSemaphore(value: 0)
        let finish = DispatchSemaphore(value: 0)
        let threadID = Mutex<Int32>(0)
        let thread = Thread {
            // `/proc/thread-self` links to `PID/task/TID` (Swift's Glibc module has no `gettid`).
            let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            threadID.withLock { $0 = link.split(separator: "/").last.flatMap { Int32($0) } ?? 0 }
            started.signal()
            finish.wait()
        }
        thread.start()
        started.wait()
        defer { finish.signal() }
        let id = threadID.withLock { $0 }
        try #require(id > 0 && id != getpid())
        #expect(minutafs_is_thread_group_leader(id) == 0)
        #expect(ProgramID(threadID: id)?.threadGroup == getpid())
    }

    @Test("another process is its own program")
    func otherProcess() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["30"]
        try child.run()
        defer {
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
        }
        let id = child.processIdentifier
        #expect(minutafs_is_thread_group_leader(id) == 1)
        #expect(ProgramID(threadID: id)?.threadGroup == id)
        #expect(ProgramID.threadGroup(ofThread: id) == id)
    }

    @Test("no thread (0) is no program; a thread that ended stands for itself")
    func noThread() throws {
        #expect(ProgramID(threadID: 0) == nil)
        #expect(minutafs_is_thread_group_leader(0) == 0)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let ended = child.processIdentifier
        #expect(minutafs_is_thread_group_leader(ended) == 0)
        #expect(ProgramID(threadID: ended)?.threadGroup == ended)
    }
}
