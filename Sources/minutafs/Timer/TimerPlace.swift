import Foundation
import MinutaStore
import MinutaTimer
import SystemPackage

/// Where `minutafs start`, `stop`, `now` and `continue` work (SPEC 10): PATH is a store or its mount, or
/// is left out for the default (`MINUTAFS_STORE`, else `store = PATH` in
/// `$XDG_CONFIG_HOME/minutafs/config`). A mounted store is always worked on through its mount, whoever
/// mounted it, so the mount stays its single writer; a store not mounted is opened directly, under its
/// writer lock when the command writes.
enum TimerPlace {
    /// Options every timer command takes.
    struct Options {
        var path: String?
        var timeZone: String?
        var searchesAllMonths: Bool
    }

    /// `unmounted`: the caller found the store not mounted already (`mountPoint(for:)`).
    static func actions(_ options: Options, writing: Bool, unmounted: Bool = false) throws(CommandFailure) -> TimerActions {
        let path = try chosenPath(options.path)
        let backend = try backend(for: path, timeZone: options.timeZone, writing: writing, unmounted: unmounted)
        return TimerActions(backend: backend, searchesAllMonths: options.searchesAllMonths)
    }

    /// The path given, else the configured default.
    static func chosenPath(_ given: String?) throws(CommandFailure) -> String {
        if let given { return expanded(given) }
        if let raw = getenv("MINUTAFS_STORE"), raw.pointee != 0 {
            // Foundation would read bytes that are not UTF-8 as U+FFFD, which names another folder.
            switch ArgumentEncoding.decode(raw) {
            case .text(let store): return expanded(store)
            case .invalid(let shown):
                throw CommandFailure(path: "MINUTAFS_STORE", cause: "\(shown) is not valid UTF-8; give the store's path in UTF-8", separator: ": ")
            }
        }
        let config = configFile()
        if let config, let store = try configuredStore(config) { return expanded(store) }
        throw CommandFailure(
            path: "no store given", cause: "which store? Give the store folder or its mount (minutafs now ~/minuta), or set MINUTAFS_STORE, or write `store = \"PATH\"` in \(config ?? "$XDG_CONFIG_HOME/minutafs/config")",
            separator: ": ")
    }

    /// `$XDG_CONFIG_HOME/minutafs/config`, else `~/.config/minutafs/config`.
    static func configFile() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/minutafs/config" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.config/minutafs/config" }
        return nil
    }

    /// `store` in the config file at `path`; nil when there is no such file or it sets no store.
    /// - Throws: a failure naming the line and column of a malformed line, or why the file is unreadable.
    static func configuredStore(_ path: String) throws(CommandFailure) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw CommandFailure(path: path, cause: "cannot read the config file (\(error.localizedDescription))")
        }
        do { return try ConfigFile(parsing: text, path: path).store } catch {
            throw CommandFailure(path: "\(error.path):\(error.line):\(error.column)", cause: error.reason)
        }
    }

    static func expanded(_ path: String) -> String {
        ConfigFile.expandingHome(path, home: ProcessInfo.processInfo.environment["HOME"])
    }

    /// The mount point of the minutafs mount `path` is in, or that shows the store at `path`; nil
    /// when the store is not mounted.
    static func mountPoint(for path: String) throws(CommandFailure) -> String? {
        let table: MountTable
        do { table = try MountTable.current() } catch { throw CommandFailure(path: path, cause: error.description) }
        let absolute = MountTable.absolutePath(of: FilePath(path))
        if let mount = table.mount(containing: absolute), mount.isMinutafs { return mount.mountPoint.string }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(path: path, cause: "no such folder; give the store folder (the one holding tags.automerge and records/) or its mount")
        }
        // The store mounted by anyone on this machine: through that mount.
        return mountShowing(path, in: table)?.mountPoint.string
    }

    static func backend(for path: String, timeZone: String?, writing: Bool, unmounted: Bool = false) throws(CommandFailure) -> any TimerBackend {
        if !unmounted, let mountPoint = try mountPoint(for: path) { return try mountBackend(mountPoint) }
        try StoreFolder.checkExistingStore(path, creating: nil)
        // A command that reads or writes a few recent months reads no other document (no holder index).
        // A command that only reads (`now`) reads waiting conflict copies too, merged in memory.
        let store = try StoreCommandSupport.open(path, timeZone: timeZone, cacheDirectory: MountFolders.current().cache,
                                                 indexesRecordHolders: false, readOnly: !writing)
        let lock = writing ? try StoreCommandSupport.lockForWriting(store.folder.string, hint: "mount it here, or wait for that process") : nil
        // Running timers are found through the index in the state folder; a command that writes reads
        // them merged with the waiting conflict copies, as `now` does (and merges a copy that holds one).
        let indexPath = MountFolders.current().state.map { RunningTimerIndex.path(stateFolder: $0, storePath: store.folder.string) }
        let reader = writing
            ? try StoreCommandSupport.open(path, timeZone: timeZone, cacheDirectory: MountFolders.current().cache, indexesRecordHolders: false, readOnly: true)
            : nil
        return StoreTimerBackend(store: store, lock: lock, indexPath: indexPath, reader: reader)
    }

    static func mountBackend(_ mountPoint: String) throws(CommandFailure) -> any TimerBackend {
        do { return try MountTimerBackend(mountPoint: mountPoint) } catch { throw CommandFailure(path: mountPoint, cause: error.description) }
    }

    /// The minutafs mount whose store is the folder at `path` (the same device and inode).
    static func mountShowing(_ path: String, in table: MountTable) -> MountTable.Mount? {
        var folder = stat()
        guard stat(path, &folder) == 0 else { return nil }
        return table.mounts.last { mount in
            var source = stat()
            return mount.isMinutafs && stat(mount.source, &source) == 0 && source.st_dev == folder.st_dev && source.st_ino == folder.st_ino
        }
    }

    /// Milliseconds since the epoch, now.
    static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// Carries out `request`: handed to the mount (one action of the mount), or done here on the store.
    /// - Throws: the answer's error, as the command's failure.
    static func perform(_ request: TimerRequest, actions: TimerActions) throws(CommandFailure) -> TimerAnswer {
        let place = actions.backend.placeDescription
        let answer: TimerAnswer
        if let mount = actions.backend as? MountTimerBackend {
            answer = try running(place) { () throws(TimerError) in try mount.perform(request) }
        } else {
            answer = TimerService.perform(request, with: actions)
        }
        // What the action changed is said and kept for `minutafs undo`, also when a later step failed
        // (a tag created stays created).
        if let line = answer.createdTag { print(line) }
        for line in answer.adjustments { print(line) }
        if request.action != .undo { UndoJournal.record(answer.documents, command: request.action.rawValue, actions: actions) }
        if let error = answer.error { throw CommandFailure(path: place, cause: error) }
        return answer
    }

    /// Runs `body`, turning a timer error into the command's one-line failure about `path`.
    static func running<T>(_ place: String, _ body: () throws(TimerError) -> T) throws(CommandFailure) -> T {
        do { return try body() } catch { throw CommandFailure(path: place, cause: error.description) }
    }
}
