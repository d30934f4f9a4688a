import FileTreeInterface
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The descriptor the signal handler signals; -1 when no mount handles signals. A C signal handler
/// cannot capture context, so this one value is global (and atomic: the handler may run on any thread).
private let stopSignalDescriptor = Atomic<Int32>(-1)

/// SIGTERM, SIGINT and SIGHUP end a mount cleanly (SPEC section 6): the handler only signals the mount's
/// stop event, and `FuseMount.run()` saves open files and unmounts on its own thread.
struct StopSignals: ~Copyable {
    private static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP]
    private var previous: [(Int32, sigaction)] = []

    /// Installs the handlers, which signal `event`; `restore()` puts the previous ones back.
    init(signalling event: EventSignal) {
        stopSignalDescriptor.store(event.descriptor, ordering: .sequentiallyConsistent)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            let savedErrno = errno
            let descriptor = stopSignalDescriptor.load(ordering: .sequentiallyConsistent)
            if descriptor >= 0 {
                var one: UInt64 = 1
                _ = write(descriptor, &one, MemoryLayout<UInt64>.size)
            }
            errno = savedErrno
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        for signal in Self.handled {
            var old = sigaction()
            if sigaction(signal, &action, &old) == 0 {
                previous.append((signal, old))
            }
        }
        // A mount started by a process that blocks these signals (a test runner, some service managers)
        // inherits the mask: unblocked on this thread, which lives as long as the mount, they reach it.
        // Unblocked only after the handlers are in place: a signal already pending would otherwise be
        // delivered with its default action and end the process with the file system still mounted.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signal in Self.handled { sigaddset(&unblocked, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }

    /// Puts the previous handlers back; calling it again does nothing.
    mutating func restore() {
        for (signal, old) in previous {
            var old = old
            sigaction(signal, &old, nil)
        }
        previous = []
        stopSignalDescriptor.store(-1, ordering: .sequentiallyConsistent)
    }
}
