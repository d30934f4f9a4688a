import AutomergeKit
import Foundation
import Glibc
import MinutaStore

/// How `minutafs sync` writes a store that is mounted: the mount is its single writer, so what the
/// peer sends is handed to it as a sync tool would, as a conflict copy beside the document
/// (`MM (minutafs sync's conflicted copy YYYY-MM-DD).automerge`, a name the store recognises),
/// written durably (temporary file, fsync, rename that never replaces, fsync of the folder). The
/// mount merges it into the document like any other copy and deletes it once the merged document is
/// on disk. Delivered copies are remembered, to wait for the mount to take them at the end.
final class MountDelivery {
    let storePath: String
    let mountPoint: String
    /// The copies written (relative to the store), in order.
    private(set) var delivered: [String] = []

    init(storePath: String, mountPoint: String) {
        self.storePath = storePath
        self.mountPoint = mountPoint
    }

    /// Writes `bytes` (a whole document) as a new conflict copy of `document` (`tags.automerge`,
    /// `records/YYYY/MM.automerge`), creating the year folder of a month the store lacks.
    /// Returns the copy's path relative to the store.
    func deliver(_ bytes: [UInt8], for document: String, day: String) throws(CommandFailure) -> String {
        let parent = BackingFiles.parentPath(document)
        let folder = parent == "." ? "" : parent + "/"
        let base = String(BackingFiles.lastComponent(document).dropLast(".automerge".count))
        let target = storePath + "/" + document
        do {
            try BackingFiles.makeDirectories(BackingFiles.parentPath(target))
            let temporary = try BackingFiles.writeTemporary(bytes, beside: target, mode: 0o644, ownerOf: storePath)
            for number in 1...999 {
                let name = folder + base + " (minutafs sync's conflicted copy \(day)\(number == 1 ? "" : " \(number)")).automerge"
                if try BackingFiles.renameWithoutReplacing(temporary.path, to: storePath + "/" + name) {
                    try BackingFiles.syncDirectory(BackingFiles.parentPath(target))
                    delivered.append(name)
                    return name
                }
            }
            unlink(temporary.path)
        } catch {
            throw CommandFailure(path: target, cause: "cannot hand what was received to the mount at \(mountPoint): \(error.description)")
        }
        throw CommandFailure(path: target, cause: "999 conflict copies of it are waiting already; the mount at \(mountPoint) is not merging them")
    }

    /// Waits until the mount has merged every delivered copy (each gone from the folder) and then
    /// finished one more synchronization pass (so its files show the merge), at most `limit`
    /// seconds without progress. Returns the copies still waiting (empty when all were merged).
    func waitUntilMerged(limit: Double = 30) -> [String] {
        guard !delivered.isEmpty else { return [] }
        var waiting = delivered
        var lastProgress = Date()
        while !waiting.isEmpty {
            let before = waiting.count
            waiting = waiting.filter { BackingFiles.status(storePath + "/" + $0) != nil }
            if waiting.count < before { lastProgress = Date() }
            if waiting.isEmpty { break }
            if Date().timeIntervalSince(lastProgress) > limit { return waiting }
            usleep(20_000)
        }
        // The pass that removed the last copy may still be publishing what it merged; the next one
        // (the removal is a folder event it wakes for) begins after it ends.
        guard let passes = passCount() else { return [] }
        let started = Date()
        while (passCount() ?? Int.max) <= passes && Date().timeIntervalSince(started) < limit { usleep(20_000) }
        return []
    }

    /// The mount's finished synchronization passes (`.minutafs/status`), nil when unreadable.
    private func passCount() -> Int? {
        guard let bytes = try? BackingFiles.read(mountPoint + "/.minutafs/status", limit: 1 << 20) else { return nil }
        let prefix = "synchronization passes: "
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(prefix) }
            .flatMap { Int($0.dropFirst(prefix.count).prefix { $0.isNumber }) }
    }
}
