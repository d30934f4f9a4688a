import ArgumentParser
import Foundation
import MinutaFS
import MinutaStore
import SystemPackage

extension Minutafs {
    /// `minutafs merge STORE`: merges every conflict copy a sync tool left in the store.
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Merge every conflict copy in a store into its document, once.",
            discussion: """
                Sync tools leave conflict copies such as "01 (Alice's conflicted copy 2024-01-15).automerge" \
                beside a document when two devices changed it at once. This merges each copy into its \
                document (nothing anyone wrote is lost), writes the document durably, and only then \
                deletes the copy. A copy that cannot be read is moved to .minutafs-quarantine/ instead.
                A copy that cannot be merged now (its document cannot be loaded, say) is reported and \
                left as it is; every other copy is still merged. A document that cannot be loaded is \
                never written over. While the store is mounted this changes nothing and says so: the \
                mount merges conflict copies itself.
                Exit status: 0 when everything was merged, 1 when a copy was quarantined or not merged, \
                the store is mounted (the mount merges; nothing was changed), or the folder is not a store \
                or could not be read.

                Example:
                  minutafs merge ~/Dropbox/Minuta
                """)

        @Argument(help: "The store folder (the one holding tags.automerge and records/).")
        var store: String

        func run() throws {
            try reportingFailures {
                let opened = try StoreCommandSupport.openExistingStore(store)
                let lock = try StoreCommandSupport.lockForWriting(opened.folder.string)
                // An atomic write's first half that a killed minutafs of this machine left: merged (a
                // document) or removed now, before the sync tool carries it to every device.
                let leftovers = opened.removeStaleTemporaryFiles()
                let reports: [MergeReport]
                do { reports = try opened.mergeConflictCopies() } catch let error as StoreError { throw CommandFailure(path: store, cause: error.description) }
                withExtendedLifetime(lock) {}
                for leftover in leftovers { print("\(leftover): a temporary file a killed minutafs left; merged into its document or removed") }
                if reports.isEmpty { print("no conflict copies in \(opened.folder.string)") }
                for report in reports { print(report.description) }
                let failed = reports.contains { report in
                    switch report.outcome {
                    case .quarantined, .waiting: true
                    case .merged, .duplicateRemoved: false
                    }
                }
                if failed { throw ExitCode.failure }
            }
        }
    }

    /// `minutafs check STORE`: loads everything and reports problems.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Load every document of a store and report problems and conflict copies.",
            discussion: """
                Loads tags.automerge and every records/YYYY/MM.automerge, and lists documents that cannot \
                be loaded, conflict copies waiting to be merged (run `minutafs merge`), images a record \
                names that are missing, and changes a mount acknowledged and could not yet write to the \
                folder (kept in its journal in the state folder; the next mount writes them). \
                Exit status: 0 when all is well, 1 when anything was reported.

                Example:
                  minutafs check ~/Dropbox/Minuta
                """)

        @Argument(help: "The store folder.")
        var store: String

        func run() throws {
            try reportingFailures {
                let opened = try StoreCommandSupport.openExistingStore(store)
                var problems = opened.check()
                problems += StoreCommandSupport.journalProblems(
                    folder: StoreCommandSupport.journalFolder(stateDirectory: MountFolders.current().state, storePath: opened.folder.string))
                let months = (try? opened.months().count) ?? 0
                for problem in problems { print(problem) }
                print("\(months) month document\(months == 1 ? "" : "s") checked, \(problems.count) problem\(problems.count == 1 ? "" : "s")")
                if !problems.isEmpty { throw ExitCode.failure }
            }
        }
    }
}

enum StoreCommandSupport {
    /// Opens the store at `path` for a command that works on an existing store (`check`,
    /// `merge`, `log`, `report`, `mount`): refuses an empty path, a minutafs mount or a path in one
    /// (SPEC 5b), a path that is missing, behind a folder the user cannot enter, or not a folder, and
    /// a folder with neither `tags.automerge` nor `records/` (a wrong path, or the sync tool's parent
    /// folder), which would otherwise be "checked" or mounted with nothing in it (`StoreFolder`).
    /// `creating` is how to start a new store there instead, for a command that can.
    /// `readOnly`: the command only reads, and reads each document merged in memory with the conflict
    /// copies waiting beside it, as a mount shows them (`Store+WaitingCopies.swift`).
    static func openExistingStore(
        _ path: String, creating hint: String? = nil, timeZone: String? = nil, stateDirectory: String? = nil,
        cacheDirectory: String? = nil, readOnly: Bool = false, log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(CommandFailure) -> Store {
        if !path.isEmpty { try MountedPath.refuse(path) }
        try StoreFolder.checkExistingStore(path, creating: hint)
        return try open(path, timeZone: timeZone, stateDirectory: stateDirectory, cacheDirectory: cacheDirectory, readOnly: readOnly, log: log)
    }

    static func open(
        _ path: String, timeZone: String? = nil, stateDirectory: String? = nil, cacheDirectory: String? = nil,
        indexesRecordHolders: Bool = true, readOnly: Bool = false, log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(CommandFailure) -> Store {
        guard let zone = StoreTimeZone(identifier: timeZone) else {
            throw CommandFailure(path: path, cause: "unknown time zone \(timeZone ?? "")")
        }
        // The store folder, not the link to it: `Store` never follows a link at its own path (a folder
        // replaced by one under a mount is not the store), so a link the user named is resolved here.
        let path = MountDaemon.absolute(path)
        do {
            return try Store(folder: FilePath(path), timeZone: zone, stateDirectory: stateDirectory.map { FilePath($0) },
                             cacheDirectory: cacheDirectory.map { FilePath($0) },
                             indexesRecordHolders: indexesRecordHolders, mergesWaitingCopiesInMemory: readOnly, log: log)
        } catch {
            throw CommandFailure(path: path, cause: error.description)
        }
    }

    /// The folder of the mount's journal of acknowledged changes not yet in the store folder (see
    /// `DeferredWorkJournal`): in the state folder, never the synced folder, one per store.
    static func journalFolder(stateDirectory: String?, storePath: String) -> String? {
        stateDirectory.map { $0 + "/journal-" + logKey(storePath) }
    }

    /// What a mount's journal still holds for the store, as `check` lists problems.
    static func journalProblems(folder: String?) -> [String] {
        guard let folder else { return [] }
        do throws(JournalError) {
            let found = try DeferredWorkJournal.inspect(folder: folder)
            return found.entries.map { "\($0.summary): acknowledged by a mount and not yet written to the folder; kept in \(folder), and written by the next mount of this store" }
                + found.damaged.map { "\($0.path): a journal file that is not a whole entry (\($0.reason)); left as it is" }
        } catch {
            return ["\(folder): \(error)"]
        }
    }

    /// The name part of a store's log file in the state folder.
    static func logKey(_ storePath: String) -> String {
        StoreLock.fileKey(for: FilePath(storePath))
    }

    /// The writer lock of the store a document file belongs to (`STORE/tags.automerge` or
    /// `STORE/records/YYYY/MM.automerge`), or nil for a file outside any store. The path is resolved
    /// first (`ResolvedPath`: relative, `..`, links, a file not yet there), so no spelling of a
    /// store's document gets past the lock of a store in use.
    static func lockForDocument(atPath path: String) throws(CommandFailure) -> StoreLock? {
        let absolute = ResolvedPath.of(path)
        let parts = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let name = parts.last else { return nil }
        var root: [String]?
        if name == DocumentName.tagsPath {
            root = Array(parts.dropLast())
        } else if parts.count >= 3, parts[parts.count - 3] == "records", parts[parts.count - 2].count == 4 {
            root = Array(parts.dropLast(3))
        }
        guard let root else { return nil }
        let store = "/" + root.joined(separator: "/")
        guard FileManager.default.fileExists(atPath: store + "/" + DocumentName.tagsPath) || FileManager.default.fileExists(atPath: store + "/records") else { return nil }
        return try lockForWriting(store, hint: "unmount it first")
    }

    /// Takes the store's writer lock for a command that writes documents (the mount, `merge`,
    /// `migrate`, an in-place `doc compact`): the lock is on the store folder itself, whoever runs
    /// the command (SPEC 5a), so a store in use is refused, naming its mount point and pid, and
    /// nothing changes.
    static func lockForWriting(
        _ storePath: String, hint: String = "unmount it first (the mount merges conflict copies itself)"
    ) throws(CommandFailure) -> StoreLock {
        do {
            return try StoreLock(storeFolder: FilePath(storePath))
        } catch {
            if case .storeInUse(_, let holder) = error {
                throw CommandFailure(path: storePath, cause: "the store is in use: \(holder); \(hint)")
            }
            if case let .storeHeldByStuckMount(_, mountPoint, process, connection) = error {
                throw CommandFailure(path: storePath, cause: StoreError.stuckMountReason(mountPoint: mountPoint, process: process, connection: connection))
            }
            throw CommandFailure(path: storePath, cause: error.description)
        }
    }
}
