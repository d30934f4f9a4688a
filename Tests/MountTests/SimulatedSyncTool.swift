import Foundation
import Synchronization
import TestSupport

/// A file sync tool between two folders, as Dropbox and Syncthing behave: a server copy of every
/// file; a file changed on one side only is uploaded and then replaces the other side's copy
/// whole (written beside it and renamed over it); a file changed on both sides keeps the server's
/// version and the side's own version becomes a conflict copy, `01 (B's conflicted copy
/// 2024-06-01 7).automerge`, synced like any file. Deletions and new folders are synced too.
/// The store's own temporary files (`.*.minutafs-*.tmp`) are not synced.
final class SimulatedSyncTool: Sendable {
    let roots: [String]
    let names: [String]

    private struct State {
        /// Relative path to bytes, as the server holds them.
        var server: [String: [UInt8]] = [:]
        /// Per side: relative path to the bytes that side had when it last synced the path.
        var known: [[String: [UInt8]]]
        var folders: Set<String> = []
        var conflictCopies = 0
        /// Files written, removed or uploaded, ever.
        var changes = 0
        var stopped = false
        var running = false
        /// Which side goes first in a round (the test's seed decides).
        var random: SeededGenerator
    }

    private let state: Mutex<State>

    /// Both folders must start with the same files. `seed` decides which side each round visits first.
    init(_ first: String, _ second: String, names: [String] = ["Alice", "Bob"], seed: UInt64 = 0) throws {
        roots = [first, second]
        self.names = names
        var initial = State(known: [[:], [:]], random: SeededGenerator(seed: seed))
        let (files, folders) = try Self.scan(first)
        initial.server = files
        initial.known = [files, files]
        initial.folders = folders
        state = Mutex(initial)
    }

    var changeCount: Int { state.withLock { $0.changes } }
    var conflictCopyCount: Int { state.withLock { $0.conflictCopies } }

    /// Runs rounds on a thread of its own every `interval` seconds until `stop()`.
    func start(interval: Double = 0.05) {
        state.withLock { $0.running = true }
        Thread.detachNewThread { [self] in
            while !state.withLock({ $0.stopped }) {
                round()
                Thread.sleep(forTimeInterval: interval)
            }
            state.withLock { $0.running = false }
        }
    }

    func stop() {
        state.withLock { $0.stopped = true }
        while state.withLock({ $0.running }) { usleep(1_000) }
    }

    /// Every file and folder below `root` (relative paths), without the store's temporary files
    /// and the tool's own.
    static func scan(_ root: String) throws -> (files: [String: [UInt8]], folders: Set<String>) {
        var files: [String: [UInt8]] = [:]
        var folders: Set<String> = []
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return ([:], []) }
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.contains(".minutafs-") && name.hasSuffix(".tmp") || name.hasPrefix(".syncthing.") { continue }
            var status = stat()
            guard lstat(root + "/" + relative, &status) == 0 else { continue }
            if status.st_mode & S_IFMT == S_IFDIR {
                folders.insert(relative)
            } else if status.st_mode & S_IFMT == S_IFREG, let data = FileManager.default.contents(atPath: root + "/" + relative) {
                files[relative] = [UInt8](data)
            }
        }
        return (files, folders)
    }

    /// One pass over both sides, in turn. Returns how many files it wrote, removed or uploaded.
    @discardableResult
    func round() -> Int {
        state.withLock { state in
            var changes = 0
            for side in [0, 1].shuffled(using: &state.random) {
                changes += sync(side, &state)
            }
            state.changes += changes
            return changes
        }
    }

    private func sync(_ side: Int, _ state: inout State) -> Int {
        let root = roots[side]
        guard let (local, folders) = try? Self.scan(root) else { return 0 }
        var changes = 0
        for folder in folders where !state.folders.contains(folder) {
            state.folders.insert(folder)
            changes += 1
        }
        for folder in state.folders.sorted() where !folders.contains(folder) {
            try? FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for path in Set(local.keys).union(state.known[side].keys).union(state.server.keys).sorted() {
            let mine = local[path]
            let known = state.known[side][path]
            let server = state.server[path]
            if mine == known {
                guard server != known else { continue }
                // Changed elsewhere only: replace ours, unless it changed since the scan.
                if replace(path, in: root, expecting: mine, with: server) {
                    state.known[side][path] = server
                    changes += 1
                }
            } else if server == known || mine == nil || server == nil {
                // Changed here only (or deleted on one side and changed on the other): the change wins.
                if mine == nil && server != nil && server != known {
                    if replace(path, in: root, expecting: nil, with: server) { state.known[side][path] = server }
                } else {
                    state.server[path] = mine
                    state.known[side][path] = mine
                }
                changes += 1
            } else if let mine {
                // Changed on both sides: the server's version stays; ours becomes a conflict copy.
                state.conflictCopies += 1
                let copy = conflictCopyName(of: path, by: names[side], number: state.conflictCopies)
                guard replace(path, in: root, expecting: mine, with: server) else { continue }
                _ = replace(copy, in: root, expecting: nil, with: mine)
                state.server[copy] = mine
                state.known[side][copy] = mine
                state.known[side][path] = server
                changes += 2
            }
        }
        return changes
    }

    /// `01.automerge` → `01 (Bob's conflicted copy 2024-06-01 7).automerge`.
    private func conflictCopyName(of path: String, by name: String, number: Int) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let file = (path as NSString).lastPathComponent
        let stem = (file as NSString).deletingPathExtension
        let fileExtension = (file as NSString).pathExtension
        let copy = "\(stem) (\(name)'s conflicted copy 2024-06-01 \(number))" + (fileExtension.isEmpty ? "" : "." + fileExtension)
        return folder.isEmpty ? copy : folder + "/" + copy
    }

    /// Writes `bytes` at `path` (beside it first, then renamed over it) or removes it, if the file
    /// still holds `expected`. Returns whether it did.
    private func replace(_ path: String, in root: String, expecting expected: [UInt8]?, with bytes: [UInt8]?) -> Bool {
        let full = root + "/" + path
        guard FileManager.default.contents(atPath: full).map({ [UInt8]($0) }) == expected else { return false }
        guard let bytes else {
            return (try? FileManager.default.removeItem(atPath: full)) != nil
        }
        let folder = (full as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = folder + "/.syncthing." + (full as NSString).lastPathComponent + ".tmp"
        guard (try? Data(bytes).write(to: URL(fileURLWithPath: temporary))) != nil else { return false }
        return rename(temporary, full) == 0
    }
}
