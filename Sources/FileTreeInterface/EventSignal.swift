import CLinuxCalls
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A flag that threads wait for with `poll`: an `eventfd` that, once signalled, stays readable.
///
/// Signalling is one `write`, so a signal handler may do it. Every background thread of a mount (the
/// kernel workers, the store's synchronizer and folder watcher) stops on one of these, never on a flag it
/// polls or a sleep it finishes first.
public final class EventSignal: Sendable {
    /// For `poll` beside other descriptors (`POLLIN` once signalled).
    public let descriptor: Int32

    /// - Throws: the error of `eventfd`.
    public init() throws(Errno) {
        let descriptor = minutafs_eventfd()
        guard descriptor >= 0 else { throw Errno(rawValue: errno) }
        self.descriptor = descriptor
    }

    public func signal() {
        var one: UInt64 = 1
        _ = Glibc.write(descriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Whether `signal()` was called.
    public var isSignalled: Bool { wait(seconds: 0) }

    /// Waits until `signal()` was called (at any time before or during the wait).
    public func wait() {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while poll(&waiting, 1, -1) < 0 && errno == EINTR {}
    }

    /// Waits until `signal()` was called or `seconds` have passed; whether it was called.
    public func wait(seconds: Double) -> Bool {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(max(0, seconds) * 1000)))
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            let milliseconds = max(0, Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            let ready = poll(&waiting, 1, milliseconds)
            if ready > 0 { return true }
            if ready == 0 || errno != EINTR { return false }
        }
    }

    deinit {
        Glibc.close(descriptor)
    }
}
