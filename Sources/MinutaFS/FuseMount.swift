import FileTreeInterface
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A `FileTree` mounted through the kernel with libfuse's low-level API.
///
/// ```swift
/// let mount = try FuseMount(tree: store, mountPoint: "/home/me/minuta", options: MountOptions())
/// try mount.run()   // serves until `fusermount3 -u`, SIGTERM/SIGINT/SIGHUP or `unmount()`
/// ```
public final class FuseMount: Sendable {
    /// The mount point, absolute and without symbolic links.
    public let mountPoint: String
    private let tree: any FileTree
    private let options: MountOptions
    private let lifecycle = Mutex(Lifecycle())

    private struct Lifecycle {
        enum Phase {
            case idle, mounting, serving, stopping, finished
        }
        var phase = Phase.idle
        var isStopRequested = false
        /// Wakes `run()` to stop; set while it runs.
        var stopEvent: EventSignal?
        /// The session's `/dev/fuse` descriptor while it is mounted (for tests).
        var kernelDescriptor: Int32?
    }

    /// The `/dev/fuse` descriptor of the running session; nil before it is mounted and once `run()` ends.
    /// Tests hand it to a child process to reproduce one that inherited it.
    var kernelDescriptor: Int32? {
        lifecycle.withLock { $0.kernelDescriptor }
    }

    /// Checks the mount point: it must exist, be an empty directory, and not be a mount already.
    ///
    /// - Throws: `MountError` saying what is wrong with it.
    public init(tree: any FileTree, mountPoint: String, options: MountOptions) throws(MountError) {
        self.tree = tree
        self.options = options
        self.mountPoint = try Self.checkedMountPoint(mountPoint)
    }

    /// Whether the file system is mounted and answering requests.
    public var isServing: Bool {
        lifecycle.withLock { $0.phase == .serving }
    }

    /// Mounts the tree and serves it until the kernel unmounts it (`fusermount3 -u`), a stop signal arrives
    /// (when `options.handlesSignals`), or `unmount()` is called; then saves what open files hold, unmounts
    /// and returns.
    ///
    /// - Throws: `MountError` when mounting fails, or when reading requests failed (after unmounting).
    /// `whenServing` is called once, when the kernel mount is in place and requests are served (a
    /// background `minutafs mount` tells its parent then).
    public func run(whenServing: (() -> Void)? = nil) throws(MountError) {
        let stopEvent = try EventSignal.forMount()
        guard try claimStart(stopEvent: stopEvent) else { return }
        // Handled from before the mount is visible: a stop signal sent as soon as the mount appears (by a
        // script, or a service manager) must end it cleanly, not kill the process and leave it mounted.
        var signals = options.handlesSignals ? StopSignals(signalling: stopEvent) : nil
        defer {
            signals?.restore()
            lifecycle.withLock { lifecycle in
                lifecycle.phase = .finished
                lifecycle.stopEvent = nil
                lifecycle.kernelDescriptor = nil
            }
        }
        let serving = try startServing(stoppedBy: stopEvent)
        lifecycle.withLock { lifecycle in
            lifecycle.phase = .serving
            lifecycle.kernelDescriptor = serving.session.descriptor
        }
        whenServing?()

        stopEvent.wait()

        lifecycle.withLock { $0.phase = .stopping }
        try stopServing(serving)
    }

    /// Moves the lifecycle from idle to mounting: true to go on; false when `unmount()` came first (the
    /// run ends at once).
    /// - Throws: `MountError.alreadyRunning` when `run()` was called before.
    private func claimStart(stopEvent: EventSignal) throws(MountError) -> Bool {
        let mayStart = lifecycle.withLock { lifecycle -> Bool? in
            guard lifecycle.phase == .idle else { return nil }
            if lifecycle.isStopRequested {
                lifecycle.phase = .finished
                return false
            }
            lifecycle.phase = .mounting
            lifecycle.stopEvent = stopEvent
            return true
        }
        guard let mayStart else { throw .alreadyRunning }
        return mayStart
    }

    /// What a served mount is made of, from `startServing` to `stopServing`.
    private struct Serving {
        let fileSystem: FuseFileSystem
        let notifier: KernelCacheNotifier
        let session: KernelSession
        let workers: KernelWorkers
        /// Signalled when the kernel ends the connection (the last file on a detached mount closed).
        let connectionEnded: EventSignal
        let connection: KernelConnection?
    }

    /// Mounts the tree at the mount point and starts the worker threads that answer the kernel; nothing
    /// is left mounted when it throws.
    private func startServing(stoppedBy stopEvent: EventSignal) throws(MountError) -> Serving {
        let notifier = KernelCacheNotifier()
        var journal: DeferredWorkJournal?
        if let folder = options.journalFolder, !options.readOnly {
            do throws(JournalError) {
                journal = try DeferredWorkJournal(folder: folder)
            } catch {
                throw .journalUnusable(error.description)
            }
        }
        let fileSystem = FuseFileSystem(
            tree: tree, isReadOnly: options.readOnly, removalDelay: options.removalDelay,
            settleDelay: options.settleDelay, emptyFileLifetime: options.emptyFileLifetime, journal: journal, invalidator: notifier,
            log: Self.logToStandardError)
        // What an earlier mount acknowledged and did not write, before the kernel sees the tree.
        fileSystem.recoverJournal()
        let server = KernelServer(fileSystem: fileSystem, owner: .current(), cacheTimeout: options.cacheTimeout)
        let session = try KernelSession(server: server, options: options.libfuseOptions)
        do throws(MountError) {
            try session.mount(at: mountPoint)
        } catch {
            session.destroy()
            throw error
        }
        notifier.attach(session.pointer)
        tree.setChangeHandler { [weak fileSystem] change in
            fileSystem?.treeDidChange(change)
        }
        tree.setPendingWorkReporter { [weak fileSystem] in fileSystem?.pendingWork() ?? PendingWork() }
        let workers: KernelWorkers
        let connectionEnded: EventSignal
        do throws(MountError) {
            connectionEnded = try EventSignal.forMount()
            workers = try KernelWorkers(
                session: session, count: options.workerThreads, ended: [stopEvent, connectionEnded])
        } catch {
            tree.setChangeHandler { _ in }
            tree.setPendingWorkReporter { PendingWork() }
            notifier.close()
            session.unmount()
            session.destroy()
            throw error
        }
        // Only now: the stat is answered by the workers.
        let connection = KernelConnection(mountPoint: mountPoint)
        return Serving(fileSystem: fileSystem, notifier: notifier, session: session, workers: workers,
                       connectionEnded: connectionEnded, connection: connection)
    }

    /// Saves what open files hold, lets files still open on the mount be closed (for `detachGrace` at
    /// most), stops the workers and unmounts.
    /// - Throws: `MountError.connectionFailed` when reading requests failed.
    private func stopServing(_ serving: Serving) throws(MountError) {
        let workers = serving.workers
        if workers.outcome == .none {
            // Stopping by request: the kernel still sends requests, so saves and cache notices can finish.
            serving.fileSystem.finishPendingWork()
        }
        tree.setChangeHandler { _ in }
        tree.setPendingWorkReporter { PendingWork() }
        serving.notifier.close()
        if workers.outcome == .none && serving.session.detach(from: mountPoint) {
            // Nothing new can enter the mount, but a file still open on it gets a FLUSH and RELEASE when it
            // is closed, and the caller waits for the answer. Keep answering until the last one is closed
            // (the kernel then ends the connection) or the grace runs out. Without this, a child process
            // that inherited this process's `/dev/fuse` descriptor and a file on the mount (a program
            // started between fork and exec, as in the tests that mount in-process) blocks forever in
            // close(): its own copy of `/dev/fuse` keeps the connection from being aborted.
            if !serving.connectionEnded.wait(seconds: options.detachGrace), let connection = serving.connection {
                // Files are still open: end their requests (ENOTCONN) rather than leave a holder of
                // `/dev/fuse` waiting for ever.
                connection.abort()
            }
        }
        workers.stop()
        serving.fileSystem.finishPendingWork()
        serving.fileSystem.reportJournalAtEnd()
        serving.session.unmount()
        serving.session.destroy()
        if case .failed(let error) = workers.outcome {
            throw .connectionFailed(errno: error.rawValue)
        }
    }

    /// Ends `run()` from any thread: open files are saved, the file system is unmounted, and `run()`
    /// returns. A file still open on it is answered until it is closed, for `options.detachGrace`
    /// seconds at most (see `run()`); after that, programs still inside get `ENOTCONN`. Before
    /// `run()`, makes it return at once.
    public func unmount() {
        lifecycle.withLock { lifecycle in
            lifecycle.isStopRequested = true
            lifecycle.stopEvent?.signal()
        }
    }

    /// One line on standard error, written at once (the daemonized command may have redirected it to a log).
    @Sendable private static func logToStandardError(_ message: String) {
        let line = Array("minutafs: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    private static func checkedMountPoint(_ path: String) throws(MountError) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else {
            switch errno {
            case ENOENT: throw .mountPointMissing(path)
            case ENOTCONN: throw .staleMount(path)
            case let error: throw .mountPointUnusable(path, errno: error)
            }
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .mountPointNotDirectory(path) }
        guard let resolved = realpath(path, nil) else { throw .mountPointUnusable(path, errno: errno) }
        let absolute = String(cString: resolved)
        free(resolved)

        if absolute != "/" {
            var parentStatus = stat()
            let parent = absolute[..<(absolute.lastIndex(of: "/") ?? absolute.startIndex)]
            if stat(parent.isEmpty ? "/" : String(parent), &parentStatus) == 0 && parentStatus.st_dev != status.st_dev {
                throw .alreadyMounted(path)
            }
        }
        guard let directory = opendir(absolute) else { throw .mountPointUnusable(path, errno: errno) }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { throw .mountPointNotEmpty(path) }
        }
        return absolute
    }
}
