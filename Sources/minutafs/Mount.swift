import ArgumentParser
import Foundation
import Glibc
import MinutaFS
import MinutaStore

extension Minutafs {
    /// `minutafs mount STORE MOUNTPOINT`: serves the store as JSON files.
    struct Mount: ParsableCommand {
        static let configuration = CommandConfiguration(
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

                Runs in the background unless -f is given. Unmount with `fusermount3 -u MOUNTPOINT` (or \
                SIGTERM/SIGINT to the process): pending writes are flushed first.
                Exit status: 0 after a clean unmount; 1 when the store or mount point is unusable.

                Examples:
                  minutafs mount ~/Dropbox/Minuta ~/minuta
                  minutafs mount -f -o ro --timezone Europe/Berlin ~/Dropbox/Minuta ~/minuta
                  ls ~/minuta/.minutafs/history/
                  minutafs restore ~/minuta/.minutafs/history/2024-03-10/records/2024/03/2024-03-08_090000.json
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

        @OptionGroup var logging: LoggingOptions

        func run() throws {
            try reportingFailures {
                try MountedPath.refuse(store)
                let folders = MountFolders.current()
                // Said once: by the command the user ran, not again by a background mount's child.
                if let notice = folders.notice, ProcessInfo.processInfo.environment[MountDaemon.handshakeVariable] != "1" {
                    MountLog.write("warning: \(notice)")
                }
                let stateDirectory = folders.state
                let store = try StoreCommandSupport.open(store, timeZone: timezone, stateDirectory: stateDirectory,
                                                         cacheDirectory: folders.cache, log: MountLog.write)
                let list = options.flatMap { $0.split(separator: ",").map(String.init) }
                var mountOptions = MountOptions(
                    // As mount(8) does, the last of `ro` and `rw` wins (`defaults,ro` in fstab, then `-o rw`).
                    readOnly: list.last(where: { $0 == "ro" || $0 == "rw" }) == "ro", allowOther: list.contains("allow_other"), foreground: foreground,
                    extra: list.filter { !["ro", "rw", "allow_other", "default_permissions"].contains($0) })
                mountOptions.fsName = store.path
                if !foreground {
                    try MountDaemon.startInBackground(arguments: CommandLine.arguments, mountPoint: mountPoint)
                    return
                }
                // One writer per store per machine: a second mount of this store stops here.
                // The lock is held by this process, the one that serves the mount (a background mount
                // is this command again with -f), and is released when it exits.
                let lock = try StoreCommandSupport.lockForWriting(store.path, hint: "a store is mounted once per machine")
                try withExtendedLifetime(lock) { () throws(CommandFailure) in
                    try serve(store: store, options: mountOptions, description: list.isEmpty ? "rw" : list.joined(separator: ","),
                              logFile: stateDirectory.map { $0 + "/mount-" + StoreCommandSupport.logKey(store.path) + ".log" })
                }
            }
        }

        private func serve(store: Store, options: MountOptions, description: String, logFile: String?) throws(CommandFailure) {
            let tree = StoreView(store: store, mountDescription: "\(mountPoint) (\(description))")
            let logger = logging.makeLogger()
            let synchronizer: StoreSynchronizer
            let mount: FuseMount
            do {
                synchronizer = try StoreSynchronizer(tree: tree, debugLog: { logger.debug("\($0)") })
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
                try mount.run(whenServing: { MountDaemon.reportReady(logFile: logFile) })
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
    @Sendable static func write(_ line: String) {
        FileHandle.standardError.write(Data("minutafs: \(line)\n".utf8))
    }
}

/// Starting the mount in the background: the same command again with `-f`, in a new session. The
/// child writes ``readyLine`` to its standard error once it serves the mount point; the parent
/// reports success only then, and otherwise the child's last error line (so another process's mount
/// at the same place is never taken for ours).
enum MountDaemon {
    static let readyLine = "minutafs: mounted and serving"
    static let handshakeVariable = "MINUTAFS_MOUNT_HANDSHAKE"

    static func startInBackground(arguments: [String], mountPoint: String) throws(CommandFailure) {
        guard let executable = Bundle.main.executablePath ?? arguments.first else {
            throw CommandFailure(path: mountPoint, cause: "cannot find the minutafs executable")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst()) + ["-f"]
        var environment = ProcessInfo.processInfo.environment
        environment[handshakeVariable] = "1"
        process.environment = environment
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
                if text.split(whereSeparator: \.isNewline).contains(where: { $0 == readyLine }) {
                    for line in text.split(whereSeparator: \.isNewline) where line != readyLine {
                        FileHandle.standardError.write(Data((line + "\n").utf8))
                    }
                    print("mounted \(target) (pid \(process.processIdentifier)); unmount with: fusermount3 -u \(target)")
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
        let message = String(decoding: received, as: UTF8.self).split(whereSeparator: \.isNewline).last.map(String.init)
            ?? "the mount process exited with status \(process.terminationStatus) before mounting"
        throw CommandFailure(path: mountPoint, cause: message.hasPrefix("minutafs: ") ? String(message.dropFirst("minutafs: ".count)) : message)
    }

    /// Tells a waiting background parent that the mount is served, then sends the log to `logFile`
    /// (the parent stops reading). Without a parent waiting, does nothing.
    static func reportReady(logFile: String?) {
        guard ProcessInfo.processInfo.environment[handshakeVariable] == "1" else { return }
        FileHandle.standardError.write(Data((readyLine + "\n").utf8))
        let target = logFile.map { open($0, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600) } ?? -1
        let replacement = target >= 0 ? target : open("/dev/null", O_WRONLY | O_CLOEXEC)
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
