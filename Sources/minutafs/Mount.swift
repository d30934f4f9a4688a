import ArgumentParser
import Foundation
import Glibc
import MinutaFS
import MinutaStore
import SystemPackage

extension Minutafs {
    /// `minutafs mount STORE MOUNTPOINT`: serves the store as JSON files.
    struct Mount: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mount",
            abstract: "Mount a store as readable, editable JSON and image files.",
            discussion: """
                Shows tags.json, one JSON file per record under records/YYYY/MM/, the images, and \
                .minutafs/status, .minutafs/errors and .minutafs/conflicts. Any program can read and edit \
                the files; each save becomes Automerge operations in the store's documents, and conflict \
                copies the sync tool drops beside a document are merged within a second. A write that is \
                refused (broken JSON, say) fails, its reason goes to .minutafs/errors and its bytes are kept \
                in .minutafs/rejected/.

                reports/ holds read-only timesheets: reports/YYYY/MM.csv, MM-by-tag.csv and MM.svg for each \
                month, reports/YYYY/summary.csv for each year (`minutafs report` prints them without a mount).

                .minutafs/history/ (not listed, so grep -r and find skip it; open it by name) holds every \
                past state, read-only: `ls` it for one folder per day with changes, or open any instant \
                (2024-03-12T09:30, ...Z, ...+02:00). `minutafs restore` sets one record (or, with --tag, one \
                tag) back to a snapshot, undoing an edit or bringing back a deleted one (same id), and \
                changes nothing else. `minutafs log FILE` lists a record's changes.

                Runs in the background unless -f is given; its log (refused writes, merges, errors) is then \
                ~/.local/state/minutafs/mount-*.log ($XDG_STATE_HOME/minutafs), named when it mounts and in \
                .minutafs/status. With -f the log goes to standard error. Unmount with \
                `fusermount3 -u MOUNTPOINT` (or SIGTERM/SIGINT to the process): pending writes are flushed first.

                STORE must hold tags.automerge or records/: a mistyped path or an empty folder is refused. \
                --create starts a new, empty store in a new or empty folder.
                Exit status: 0 after a clean unmount; 1 when the store or mount point is unusable; 64 usage error.

                Examples:
                  minutafs mount ~/Dropbox/Minuta ~/minuta
                  ls ~/minuta/.minutafs/history/
                  H=~/minuta/.minutafs/history
                  minutafs restore $H/2024-11-22/records/2024/11/2024-11-21_183900.json
                  fusermount3 -u ~/minuta
                  minutafs mount -o ro --timezone Europe/Berlin ~/Dropbox/Minuta ~/minuta
                  fusermount3 -u ~/minuta
                  minutafs mount --create ~/NewStore ~/minuta
                """)

        @Argument(help: "The store folder (the sync tool's Minuta folder).")
        var store: String

        @Argument(help: "An empty folder to mount on.")
        var mountPoint: String

        @Flag(name: .customShort("f"), help: "Stay in the foreground (log to standard error).")
        var foreground = false

        @Option(name: .customShort("o"), help: "Mount options, comma-separated: ro, allow_other, or any libfuse option.")
        var options: [String] = []

        @Option(help: "Time zone for file names and filing new records (default: the local zone).")
        var timezone: String?

        @Flag(help: "Start a new, empty store when STORE is a new or empty folder (makes records/ in it).")
        var create = false

        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            try TimeZoneOption.validate(timezone)
        }

        func run() throws {
            try reportingFailures {
                if create {
                    try MountedPath.refuse(store)
                    try StoreFolder.create(store)
                }
                let folders = MountFolders.current()
                let stateDirectory = folders.state
                let store = try StoreCommandSupport.openExistingStore(
                    store, creating: "run `minutafs mount --create \(store) \(mountPoint)`", timeZone: timezone,
                    stateDirectory: stateDirectory, cacheDirectory: folders.cache, log: MountLog.write)
                // Said once, and only for a store that opened (a wrong path's error comes first and alone):
                // by the command the user ran, not again by a background mount's child.
                if let notice = folders.notice, ProcessInfo.processInfo.environment[MountDaemon.handshakeVariable] != "1" {
                    MountLog.write("warning: \(notice)")
                }
                let list = options.flatMap { $0.split(separator: ",").map(String.init) }
                var mountOptions = MountOptions(
                    // As mount(8) does, the last of `ro` and `rw` wins (`defaults,ro` in fstab, then `-o rw`).
                    readOnly: list.last(where: { $0 == "ro" || $0 == "rw" }) == "ro", allowOther: list.contains("allow_other"), foreground: foreground,
                    extra: list.filter { !["ro", "rw", "allow_other", "default_permissions"].contains($0) })
                mountOptions.fsName = store.folder.string
                mountOptions.journalFolder = StoreCommandSupport.journalFolder(stateDirectory: stateDirectory, storePath: store.folder.string)
                if !foreground {
                    try MountDaemon.startInBackground(arguments: CommandLine.arguments, mountPoint: mountPoint)
                    return
                }
                // One writer per store per machine: a second mount of this store stops here.
                // The lock is held by this process, the one that serves the mount (a background mount
                // is this command again with -f), and is released when it exits.
                let lock = try StoreCommandSupport.lockForWriting(store.folder.string, hint: "a store is mounted once per machine")
                // A background mount's log file is opened now, so status can name it; it becomes standard
                // error once the mount is served (`MountDaemon.reportReady`).
                let log = MountDaemon.isBackgroundChild
                    ? MountLogFile.open(stateDirectory: stateDirectory, name: "mount-" + StoreCommandSupport.logKey(store.folder.string) + ".log")
                    : .standardError
                try withExtendedLifetime(lock) { () throws(CommandFailure) in
                    try serve(store: store, options: mountOptions, description: list.isEmpty ? "rw" : list.joined(separator: ","), log: log)
                }
            }
        }

        /// Seconds between two periodic synchronization passes: 5, or `MINUTAFS_SYNC_PERIOD` when it holds
        /// a positive number (the tests set it to tell the periodic pass from the folder watcher).
        private static var synchronizationPeriod: Double {
            guard let text = ProcessInfo.processInfo.environment["MINUTAFS_SYNC_PERIOD"], let seconds = Double(text),
                  seconds.isFinite, seconds > 0 else { return 5 }
            return seconds
        }

        private func serve(store: Store, options: MountOptions, description: String, log: MountLogFile) throws(CommandFailure) {
            let tree = StoreView(store: store, mountDescription: "\(MountDaemon.absolute(mountPoint)) (\(description))",
                                 logDescription: log.description)
            MountTimerControl.register(on: tree, stateDirectory: MountFolders.current().state)
            let logger = logging.makeLogger()
            let synchronizer: StoreSynchronizer
            let mount: FuseMount
            do {
                synchronizer = try StoreSynchronizer(
                    tree: tree, period: Self.synchronizationPeriod, debugLog: { logger.debug("\($0)") })
                mount = try FuseMount(tree: tree, mountPoint: mountPoint, options: options)
            } catch {
                throw CommandFailure(path: mountPoint, cause: "\(error)")
            }
            // Temporary files a killed process left behind, then what the sync tool left while we
            // were not mounted; then watch for more.
            store.removeStaleTemporaryFiles()
            // A record moved between months by a mount that was killed mid-move is in both documents.
            do { try store.finishInterruptedMoves() } catch {
                MountLog.write("warning: a record move left half done by an earlier mount could not be finished: \(error)")
            }
            synchronizer.start()
            defer { synchronizer.stop() }
            do {
                // Once the kernel mount is in place, the background parent is told (its handshake);
                // from then on the log goes to a file.
                try mount.run(whenServing: { MountDaemon.reportReady(log: log) })
            } catch {
                throw CommandFailure(path: mountPoint, cause: error.description)
            }
            // What the sync tool delivered since the last pass: merged (and written back if this
            // mount holds more) before the process ends, so no acknowledged save is left only in memory.
            synchronizer.stop()
            synchronizer.synchronize()
        }
    }
}

/// Where the mount's log goes: standard error (the terminal with -f, the journal under systemd, a
/// file in the state folder for a background mount).
enum MountLog {
    /// One line, written at once with write(2): FileHandle traps when standard error is gone, and a
    /// line that cannot be written is dropped instead.
    @Sendable static func write(_ line: String) {
        writeRaw("minutafs: " + line.split(whereSeparator: \.isNewline).joined(separator: " "))
    }

    /// `line` and a line end, as it is.
    static func writeRaw(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

/// Where a mount's log goes: standard error (`-f`: the terminal, or the journal under systemd), or
/// for a background mount a file in the state folder, `$XDG_STATE_HOME/minutafs/mount-<store>.log`
/// (default `~/.local/state/minutafs/`), appended to by every mount of the store.
enum MountLogFile {
    case standardError
    /// The log file, open for appending.
    case file(path: String, descriptor: Int32)
    /// No file could be made: the log is dropped, and `reason` says why.
    case none(reason: String)

    /// Opens (creating it and its folder) the log file `name` in `stateDirectory`.
    static func open(stateDirectory: String?, name: String) -> MountLogFile {
        guard let stateDirectory else { return .none(reason: "no $HOME or $XDG_STATE_HOME to keep it in") }
        do {
            try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return .none(reason: "\(stateDirectory) cannot be made")
        }
        let path = stateDirectory + "/" + name
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .none(reason: "\(path) cannot be written: \(String(cString: strerror(errno)))") }
        return .file(path: path, descriptor: descriptor)
    }

    /// What `.minutafs/status` and the background mount's first line say about the log.
    var description: String {
        switch self {
        case .standardError: "standard error of the mount process (mounted with -f)"
        case .file(let path, _): path
        case .none(let reason): "none (\(reason))"
        }
    }
}

/// Starting the mount in the background: the same command again with `-f`, in a new session. The
/// child writes ``readyLine`` to its standard error once it serves the mount point; the parent
/// reports success only then, and otherwise the child's last error line (so another process's mount
/// at the same place is never taken for ours).
enum MountDaemon {
    /// The start of the child's ready line; the rest is `; log: ` and where its log goes.
    static let readyLine = "minutafs: mounted and serving"
    static let logMarker = "; log: "
    static let handshakeVariable = "MINUTAFS_MOUNT_HANDSHAKE"

    /// Whether this process is the `-f` child of a background `minutafs mount`.
    static var isBackgroundChild: Bool {
        ProcessInfo.processInfo.environment[handshakeVariable] == "1"
    }

    static func startInBackground(arguments: [String], mountPoint: String) throws(CommandFailure) {
        // The kernel's link to this process's executable: Foundation's Bundle.main traps when a folder
        // on the way to the executable is closed to the user running it.
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else {
            throw CommandFailure(path: mountPoint, cause: "cannot find the minutafs executable (/proc/self/exe: \(String(cString: strerror(errno))))")
        }
        let executable = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst()) + ["-f"]
        var environment = ProcessInfo.processInfo.environment
        environment[handshakeVariable] = "1"
        process.environment = environment
        // Foundation starts the child in this process's folder by its absolute path, and fails when the
        // user may not reach it (a command run as another user from a folder under one closed to that
        // user): then the child starts in "/", where a relative store or mount point could not have
        // been found by that user anyway.
        let folder = FileManager.default.currentDirectoryPath
        if access(folder, X_OK) != 0 { process.currentDirectoryURL = URL(fileURLWithPath: "/") }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw CommandFailure(path: mountPoint, cause: "cannot start the mount process: \(error)")
        }
        let target = Self.absolute(mountPoint)
        let descriptor = errors.fileHandleForReading.fileDescriptor
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, 200)
            if ready < 0 && errno != EINTR { break }
            guard ready > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 {
                received += buffer[0..<count]
                let text = String(decoding: received, as: UTF8.self)
                let lines = text.split(whereSeparator: \.isNewline)
                if let ready = lines.first(where: { $0.hasPrefix(readyLine) }) {
                    for line in lines where !line.hasPrefix(readyLine) {
                        FileHandle.standardError.write(Data((line + "\n").utf8))
                    }
                    let log = ready.range(of: logMarker).map { String(ready[$0.upperBound...]) } ?? "none"
                    print("mounted \(target) (pid \(process.processIdentifier)); unmount with: fusermount3 -u \(target)")
                    print("log (refused writes, merges, errors): \(log)")
                    return
                }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            // End of file: the child exited (or closed its error output) without serving.
            break
        }
        if process.isRunning {
            process.terminate()
        }
        process.waitUntilExit()
        var lines = String(decoding: received, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        let message = lines.popLast() ?? "the mount process exited with status \(process.terminationStatus) before mounting"
        // What the child printed before its last line is what `-f` shows on the terminal: libfuse's own
        // reason ("fuse: failed to open /dev/fuse: Permission denied"), warnings. Passed on as it is.
        for line in lines { FileHandle.standardError.write(Data((line + "\n").utf8)) }
        throw CommandFailure(path: mountPoint, cause: message.hasPrefix("minutafs: ") ? String(message.dropFirst("minutafs: ".count)) : message)
    }

    /// Tells a waiting background parent that the mount is served and where its log goes, then sends
    /// standard error to `log` (the parent stops reading). Without a parent waiting, does nothing.
    static func reportReady(log: MountLogFile) {
        guard isBackgroundChild else { return }
        MountLog.writeRaw(readyLine + logMarker + log.description)
        let replacement = switch log {
        case .file(_, let descriptor): descriptor
        case .standardError, .none: open("/dev/null", O_WRONLY | O_CLOEXEC)
        }
        guard replacement >= 0 else { return }
        dup2(replacement, STDERR_FILENO)
        close(replacement)
    }

    static func absolute(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &buffer) != nil else { return path }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
