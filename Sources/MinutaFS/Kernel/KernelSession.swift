import CFuse3
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A libfuse session pointer that may cross threads.
///
/// `@unchecked Sendable`: libfuse allows receiving, processing and notifying on one session from several
/// threads at once. `KernelSession` guards the lifetime: the pointer is destroyed only after every
/// worker thread has been joined and the cache notifier closed.
struct SessionPointer: @unchecked Sendable {
    let raw: OpaquePointer
}

/// One libfuse session: created with the mount options, mounted, served by worker threads, unmounted and
/// destroyed by `FuseMount.run()`.
final class KernelSession: Sendable {
    let pointer: SessionPointer
    /// Keeps the server alive for as long as libfuse holds it as userdata.
    private let server: Unmanaged<KernelServer>
    /// Set once `detach(from:)` took the mount point away while the connection stayed open.
    private let isDetached = Mutex(false)

    /// Creates the session; libfuse parses the `-o` options here.
    ///
    /// - Throws: `MountError.optionsRejected` when libfuse refuses an option (it prints why).
    init(server: KernelServer, options: [String]) throws(MountError) {
        let arguments = ["minutafs", "-o", options.joined(separator: ",")]
        let retained = Unmanaged.passRetained(server)
        var operations = KernelOperations.make()
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        defer { cArguments.forEach { free($0) } }
        let session = cArguments.withUnsafeMutableBufferPointer { argv -> OpaquePointer? in
            var fuseArguments = fuse_args(argc: Int32(argv.count), argv: argv.baseAddress, allocated: 0)
            defer { fuse_opt_free_args(&fuseArguments) }
            return fuse_session_new(
                &fuseArguments, &operations, MemoryLayout<fuse_lowlevel_ops>.size, retained.toOpaque())
        }
        guard let session else {
            retained.release()
            throw .optionsRejected(options)
        }
        self.pointer = SessionPointer(raw: session)
        self.server = retained
    }

    /// Mounts the session on `mountPoint` (as root directly, otherwise through `fusermount3`).
    func mount(at mountPoint: String) throws(MountError) {
        guard fuse_session_mount(pointer.raw, mountPoint) == 0 else { throw .mountFailed(mountPoint) }
        // Worker threads wait in poll() for a request or a stop, so reading must never block.
        let descriptor = fuse_session_fd(pointer.raw)
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }

    var descriptor: Int32 {
        fuse_session_fd(pointer.raw)
    }

    /// Reads one request; nil when there was none ready (`EAGAIN`, `EINTR`).
    ///
    /// - Returns: `.ended` when the file system was unmounted or the connection aborted.
    func receive(into buffer: inout fuse_buf) -> Reception {
        let result = fuse_session_receive_buf(pointer.raw, &buffer)
        if result > 0 { return .request }
        if result == 0 || fuse_session_exited(pointer.raw) != 0 { return .ended }
        switch -result {
        case EAGAIN, EINTR: return .nothing
        case ENODEV: return .ended
        default: return .failed(Errno(rawValue: -result))
        }
    }

    enum Reception {
        case request
        case nothing
        case ended
        case failed(Errno)
    }

    func process(_ buffer: inout fuse_buf) {
        fuse_session_process_buf(pointer.raw, &buffer)
    }

    /// Takes the file system off `mountPoint` (lazily: files still open on it stay usable) while the
    /// connection stays open, so their last requests can still be answered; the kernel ends the
    /// connection (reads fail with `ENODEV`) when the last of them is closed. As root with `umount2`,
    /// otherwise with `fusermount3 -u -z` (as libfuse's own unmount does). Returns false when that
    /// failed; `unmount()` then does both steps at once.
    func detach(from mountPoint: String) -> Bool {
        let detached = geteuid() == 0
            ? umount2(mountPoint, Int32(MNT_DETACH)) == 0
            : Self.runFusermount(["-u", "-q", "-z", "--", mountPoint])
        if detached { isDetached.withLock { $0 = true } }
        return detached
    }

    /// Runs `fusermount3` (found on `PATH`) with `arguments`; whether it exited 0.
    private static func runFusermount(_ arguments: [String]) -> Bool {
        let argv: [UnsafeMutablePointer<CChar>?] = (["fusermount3"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        guard posix_spawnp(&child, "fusermount3", nil, nil, argv, environ) == 0 else { return false }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { return false }
        }
        return status == 0
    }

    /// Closes the connection (pending requests fail with `ENOTCONN`) and detaches the mount point (lazily,
    /// so a process still inside does not keep it mounted). Does nothing if the kernel already unmounted;
    /// after `detach(from:)` only the connection is left, and `destroy()` closes it.
    func unmount() {
        guard !isDetached.withLock({ $0 }) else { return }
        fuse_session_unmount(pointer.raw)
    }

    /// Frees the session. Every worker thread must have stopped and the notifier closed.
    func destroy() {
        fuse_session_destroy(pointer.raw)
        server.release()
    }
}
