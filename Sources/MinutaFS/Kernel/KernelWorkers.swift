import CFuse3
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The threads that read the kernel's requests from a session and answer them, until `stop()` or until the
/// kernel ends the connection (`fusermount3 -u`).
///
/// Each thread waits in `poll` for a request or for the stop signal, so stopping never depends on one
/// more request arriving. libfuse's own `fuse_session_loop_mt` can only be stopped by a signal or an
/// unmount; this loop lets the mount save open files and drain cache notices while requests are still
/// answered, and only then stop.
final class KernelWorkers: Sendable {
    /// How serving ended, from the threads' point of view.
    enum Ending: Equatable, Sendable {
        /// Still serving, or stopped by `stop()`.
        case none
        /// The kernel unmounted the file system or the connection was aborted.
        case connectionEnded
        /// Reading requests failed.
        case failed(Errno)
    }

    private let session: KernelSession
    private let stopSignal: EventSignal
    private let threads: Mutex<[pthread_t]> = Mutex([])
    private let ending = Mutex(Ending.none)

    /// Starts `count` threads; `ended` is signalled when the connection ends by itself.
    init(session: KernelSession, count: Int, ended: EventSignal) throws(MountError) {
        self.session = session
        self.stopSignal = try EventSignal()
        do throws(MountError) {
            for _ in 0..<max(1, count) {
                let thread = try startThread { [self] in
                    serve(reportingEndTo: ended)
                }
                threads.withLock { $0.append(thread) }
            }
        } catch {
            stop()
            throw error
        }
    }

    var outcome: Ending {
        ending.withLock { $0 }
    }

    /// Tells every thread to stop, and returns when all have.
    func stop() {
        stopSignal.signal()
        let threads = self.threads.withLock { threads in
            defer { threads = [] }
            return threads
        }
        for thread in threads {
            pthread_join(thread, nil)
        }
    }

    private func serve(reportingEndTo ended: EventSignal) {
        var buffer = fuse_buf()
        defer { free(buffer.mem) }
        let events = Int16(POLLIN)
        var descriptors = [
            pollfd(fd: session.descriptor, events: events, revents: 0),
            pollfd(fd: stopSignal.descriptor, events: events, revents: 0),
        ]
        while true {
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            if poll(&descriptors, 2, -1) < 0 {
                if errno == EINTR { continue }
                finish(.failed(Errno(rawValue: errno)), signalling: ended)
                return
            }
            if descriptors[1].revents != 0 { return }
            switch session.receive(into: &buffer) {
            case .request:
                session.process(&buffer)
            case .nothing:
                continue
            case .ended:
                finish(.connectionEnded, signalling: ended)
                return
            case .failed(let error):
                finish(.failed(error), signalling: ended)
                return
            }
        }
    }

    private func finish(_ reason: Ending, signalling ended: EventSignal) {
        ending.withLock { ending in
            if ending == .none { ending = reason }
        }
        ended.signal()
    }
}

/// Starts a POSIX thread running `body` (worker threads block in `poll`, which Dispatch's pool must not).
private func startThread(_ body: @escaping @Sendable () -> Void) throws(MountError) -> pthread_t {
    final class Start {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Start(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
        &thread, nil,
        { context in
            guard let context else { return nil }
            Unmanaged<Start>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
    guard result == 0 else {
        Unmanaged<Start>.fromOpaque(context).release()
        throw .systemCallFailed("pthread_create", errno: result)
    }
    return thread
}
