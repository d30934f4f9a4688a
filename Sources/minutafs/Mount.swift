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
                .minutafs/status, errors and conflicts. Any program can read and edit the files; each \
                save becomes Automerge operations in the store's documents, and conflict copies the sync \
                tool drops beside a document are merged within a second.

                Runs in the background unless -f is given. Unmount with `fusermount3 -u MOUNTPOINT` (or \
                SIGTERM/SIGINT to the process): pending writes are flushed first.
                Exit status: 0 after a clean unmount; 1 when the store or mount point is unusable.

                Examples:
                  minutafs mount ~/Dropbox/Minuta ~/minuta
                  minutafs mount -f -o ro --timezone Europe/Berlin ~/Dropbox/Minuta ~/minuta
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
                let store = try StoreCommandSupport.open(store, timeZone: timezone, stateDirectory: StoreCommandSupport.stateDirectory())
                let list = options.flatMap { $0.split(separator: ",").map(String.init) }
                var mountOptions = MountOptions(
                    readOnly: list.contains("ro"), allowOther: list.contains("allow_other"), foreground: foreground,
                    extra: list.filter { !["ro", "rw", "allow_other", "default_permissions"].contains($0) })
                mountOptions.fsName = store.path
                if !foreground {
                    try MountDaemon.startInBackground(arguments: CommandLine.arguments, mountPoint: mountPoint)
                    return
                }
                try serve(store: store, options: mountOptions, description: list.isEmpty ? "rw" : list.joined(separator: ","))
            }
        }

        private func serve(store: Store, options: MountOptions, description: String) throws(CommandFailure) {
            let tree = StoreFileTree(tree: StoreTree(store: store, mountDescription: "\(mountPoint) (\(description))"), logger: logging.makeLogger())
            let mount: FuseMount
            do {
                mount = try FuseMount(tree: tree, mountPoint: mountPoint, options: options)
            } catch {
                throw CommandFailure(path: mountPoint, cause: error.description)
            }
            // Temporary files a killed process left behind, then what the sync tool left while we
            // were not mounted; then watch for more.
            store.removeStaleTemporaryFiles()
            // A record moved between months by a mount that was killed mid-move is in both documents.
            do { try store.finishInterruptedMoves() } catch {
                FileHandle.standardError.write(Data("minutafs: warning: a record move left half done by an earlier mount could not be finished: \(error)\n".utf8))
            }
            tree.synchronize()
            let watcher = FolderWatcher(root: store.path) { tree.synchronize() }
            // A periodic check catches what inotify cannot see (network file systems, overflows).
            let poller = Thread {
                while !Thread.current.isCancelled {
                    Thread.sleep(forTimeInterval: 5)
                    tree.synchronize()
                }
            }
            poller.start()
            defer {
                watcher?.stop()
                poller.cancel()
            }
            do {
                try mount.run()
            } catch {
                throw CommandFailure(path: mountPoint, cause: error.description)
            }
        }
    }
}

/// Starting the mount in the background: the same command again with `-f`, in a new session,
/// its standard error read until the mount appears (success) or the child exits (its error line
/// is passed on).
enum MountDaemon {
    static func startInBackground(arguments: [String], mountPoint: String) throws(CommandFailure) {
        guard let executable = Bundle.main.executablePath ?? arguments.first else {
            throw CommandFailure(path: mountPoint, cause: "cannot find the minutafs executable")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst()) + ["-f"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw CommandFailure(path: mountPoint, cause: "cannot start the mount process: \(error)")
        }
        let target = Self.absolute(mountPoint)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if isMounted(target) {
                // Leave the child running on its own; stop reading its errors.
                print("mounted \(target) (pid \(process.processIdentifier)); unmount with: fusermount3 -u \(target)")
                return
            }
            if !process.isRunning {
                let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    .split(whereSeparator: \.isNewline).last.map(String.init) ?? "the mount process exited with status \(process.terminationStatus)"
                throw CommandFailure(path: mountPoint, cause: message.hasPrefix("minutafs: ") ? String(message.dropFirst("minutafs: ".count)) : message)
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw CommandFailure(path: mountPoint, cause: "the mount did not appear within 30 seconds")
    }

    static func absolute(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &buffer) != nil else { return path }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `/proc/self/mountinfo` lists a mount at `path`.
    static func isMounted(_ path: String) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return false }
        let escaped = path.replacingOccurrences(of: " ", with: "\\040")
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 4 && fields[4] == escaped
        }
    }
}
