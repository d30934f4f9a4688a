import Synchronization

/// What the store tells about itself: the lines of `.minutafs/errors` (refused writes and what happened
/// to document files), the bytes of refused writes (`.minutafs/rejected/`), and the counts of
/// `.minutafs/status`. It has a lock of its own, taken alone or inside any other and never around
/// another: noting an event never waits for a document's I/O, nor makes a reader wait.
final class StoreEvents: Sendable {
    /// What has been noted.
    struct Record: Sendable {
        /// Lines for `.minutafs/errors`, oldest first (the last 1000).
        var lines: [String] = []
        /// The bytes of refused writes, newest last, so nothing typed is lost.
        var rejectedFiles: [(name: String, bytes: [UInt8])] = []
        var rejectedWriteCount = 0
        var savedDocumentCount = 0
        var mergedCopyCount = 0
        var lastMerge: String?
        /// `.minutafs/conflicts` lines no document holds: edits of moved records that lost to this
        /// store's (`Writing/RecordMoves.swift`), and merged values a save through the mount replaced.
        var conflictLines: [String] = []
        /// The backing folder was found moved, deleted or replaced (noted once; `Backing/BackingFolder.swift`).
        var backingFolderGone = false
        /// Work done after a program was told it succeeded (a removal's grace period, a file held while
        /// written) that then failed.
        var failedDeferredWork = 0
    }

    private let record = Mutex(Record())
    /// The mount's log: every line noted goes there too, unless noted as not logged.
    private let log: @Sendable (String) -> Void

    init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
    }

    /// A copy of everything noted.
    var snapshot: Record { record.withLock { $0 } }

    /// Adds a line to `.minutafs/errors`, and to the log when `logged`.
    func note(_ line: String, logged: Bool = true) {
        record.withLock { record in
            record.lines.append(line)
            if record.lines.count > 1000 { record.lines.removeFirst(record.lines.count - 1000) }
        }
        if logged { log(line) }
    }

    /// Notes a line unless it is the last one noted (a failure repeated pass after pass is noted once).
    func noteOnce(_ line: String) {
        let isRepeat = record.withLock { $0.lines.last == line }
        if !isRepeat { note(line) }
    }

    /// Notes a write the store refused: the count in status, the line, and the log.
    func noteRejection(_ error: StoreError) {
        record.withLock { record in
            record.rejectedWriteCount += 1
            record.lines.append(error.description)
            if record.lines.count > 1000 { record.lines.removeFirst(record.lines.count - 1000) }
        }
        log("refused a write: \(error.description) (nothing was changed; see .minutafs/errors)")
    }

    /// Keeps the bytes of a refused write under a name made of `stamp` (the time) and the file's path;
    /// the most recent 200 files and at most 64 MiB.
    func keepRejected(_ bytes: [UInt8], file: String, stamp: String) {
        let flattened = file.split(separator: "/").joined(separator: "_")
        record.withLock { record in
            var name = stamp + "_" + flattened
            var attempt = 1
            while record.rejectedFiles.contains(where: { $0.name == name }) {
                attempt += 1
                name = stamp + "_" + String(attempt) + "_" + flattened
            }
            record.rejectedFiles.append((name, bytes))
            while record.rejectedFiles.count > 200 || record.rejectedFiles.reduce(0, { $0 + $1.bytes.count }) > 64 << 20 {
                record.rejectedFiles.removeFirst()
            }
        }
    }

    /// Adds lines to `.minutafs/conflicts` that no document's concurrent values give.
    func noteConflicts(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        record.withLock { $0.conflictLines += lines }
        for line in lines { log("conflict: " + (line.hasSuffix("\n") ? String(line.dropLast()) : line)) }
    }

    func countSavedDocument() {
        record.withLock { $0.savedDocumentCount += 1 }
    }

    func countMergedCopy(_ description: String) {
        record.withLock { record in
            record.mergedCopyCount += 1
            record.lastMerge = description
        }
    }

    /// Notes that the backing folder is gone, with `line`, the first time only.
    func noteBackingFolderGone(_ line: String) {
        let first = record.withLock { record in
            defer { record.backingFolderGone = true }
            return !record.backingFolderGone
        }
        if first { note(line) }
    }

    func noteDeferredFailure(_ line: String) {
        record.withLock { $0.failedDeferredWork += 1 }
        note(line)
    }
}
