import FileTreeInterface
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
/// Each thread waits in its own `epoll` instance for a request or for the stop signal, so stopping never
/// depends on one more request arriving. libfuse's own `fuse_session_loop_mt` can only be stopped by a
/// signal or an unmount; this loop lets the mount save open files and drain cache notices while requests
/// are still answered, and only then stop.
///
/// The `/dev/fuse` descriptor is registered with `EPOLLEXCLUSIVE`, so a request wakes one idle thread, not
/// all of them. With `poll` every request woke every thread and all but one read `EAGAIN`: a warm
/// `grep -r` of the ten-year benchmark store (117,000 requests) cost the mount 380,000 context switches,
/// 198,000 with this. (A thread busy answering when the next request comes still finds it ready and
/// may read `EAGAIN`. Blocking reads, as libfuse's loop does, save those system calls but can only be
/// interrupted by a signal, and switch tasks as often.)
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

    /// Starts `count` threads; each of `ended` is signalled when the connection ends by itself.
    init(session: KernelSession, count: Int, ended: [EventSignal]) throws(MountError) {
        self.session = session
        self.stopSignal = try EventSignal.forMount()
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

    private func serve(reportingEndTo ended: [EventSignal]) {
        var buffer = fuse_buf()
        defer { free(buffer.mem) }
        let waiter: RequestWaiter
        do throws(Errno) {
            waiter = try RequestWaiter(session: session.descriptor, stop: stopSignal.descriptor)
        } catch {
            finish(.failed(error), signalling: ended)
            return
        }
        while true {
            switch waiter.wait() {
            case .failure(let error):
                finish(.failed(error), signalling: ended)
                return
            case .success(.stop):
                return
            case .success(.request):
                break
            }
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

    private func finish(_ reason: Ending, signalling ended: [EventSignal]) {
        ending.withLock { ending in
            if ending == .none { ending = reason }
        }
        for signal in ended { signal.signal() }
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

/// One worker thread's `epoll` instance: the session's descriptor (exclusive: one idle thread is woken per
/// request) and the stop signal's (every thread is woken).
private struct RequestWaiter: ~Copyable {
    enum Event {
        case request, stop
    }

    private let descriptor: Int32
    private let stop: Int32

    /// - Throws: the C error of `epoll_create1` or `epoll_ctl`.
    init(session: Int32, stop: Int32) throws(Errno) {
        let descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard descriptor >= 0 else { throw Errno(rawValue: errno) }
        var sessionEvent = epoll_event()
        sessionEvent.events = EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue
        sessionEvent.data.fd = session
        var stopEvent = epoll_event()
        stopEvent.events = EPOLLIN.rawValue
        stopEvent.data.fd = stop
        guard epoll_ctl(descriptor, EPOLL_CTL_ADD, session, &sessionEvent) == 0,
            epoll_ctl(descriptor, EPOLL_CTL_ADD, stop, &stopEvent) == 0
        else {
            let error = Errno(rawValue: errno)
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.stop = stop
    }

    /// Waits until a request may be ready or the stop signal is set (which wins).
    func wait() -> Result<Event, Errno> {
        var events = (epoll_event(), epoll_event())
        let count = withUnsafeMutablePointer(to: &events) { pair in
            pair.withMemoryRebound(to: epoll_event.self, capacity: 2) { epoll_wait(descriptor, $0, 2, -1) }
        }
        if count < 0 {
            return errno == EINTR ? .success(.request) : .failure(Errno(rawValue: errno))
        }
        if count >= 1 && events.0.data.fd == stop || count == 2 && events.1.data.fd == stop {
            return .success(.stop)
        }
        return .success(.request)
    }

    deinit {
        close(descriptor)
    }
}
