import CFuse3
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A flag that threads wait for with `poll`: an `eventfd` that, once signalled, stays readable.
///
/// Signalling is one `write`, so a signal handler may do it.
final class EventSignal: Sendable {
    let descriptor: Int32

    init() throws(MountError) {
        let descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard descriptor >= 0 else { throw .systemCallFailed("eventfd", errno: errno) }
        self.descriptor = descriptor
    }

    func signal() {
        var one: UInt64 = 1
        _ = Glibc.write(descriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Waits until `signal()` was called (at any time before or during the wait).
    func wait() {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while poll(&waiting, 1, -1) < 0 && errno == EINTR {}
    }

    /// Waits until `signal()` was called or `seconds` have passed; whether it was called.
    func wait(seconds: Double) -> Bool {
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
