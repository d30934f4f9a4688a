import ArgumentParser
import Foundation
import Logging
import MinutaMigration
import MinutaStore

extension Minutafs {
    /// `minutafs migrate STORE`: a legacy JSON store to Automerge documents (seed 003).
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Convert a legacy JSON store (tags.json, records/YYYY/MM/*.json) to Automerge documents.",
            discussion: """
                Reads tags.json and every records/YYYY/MM/*.json, and writes tags.automerge and one \
                records/YYYY/MM.automerge per month, each record in the month of its startTime in the \
                store's time zone. Running timers (no endTime) stay running; images stay where they \
                are (one whose record lands in another month is copied there).

                Before the first change it copies the legacy layout (tags.json, its conflict copies and \
                every file under records/ but the documents, images included) to a backup beside the store \
                (STORE.backup-YYYYMMDD-HHMMSS, or --backup-dir), never inside it. At the end it reads \
                the documents and the legacy files again and checks that every tag and record is in the \
                documents with the same values.

                Every .json file under records/ is accounted for: one outside a records/YYYY/MM/ \
                folder (a sync tool's "02 (1)" duplicate folder, a subfolder) is refused with a reason, \
                and so is a symbolic link (a linked year folder is not followed). Files the mount hides \
                (an Office lock file ~$x.json) are not read, but backed up. Conflict copies of tags.json \
                ("tags (… conflicted copy …).json") are merged in; keys of tags.json beside "tags" are \
                kept. Record ids are kept as written.

                A legacy file that cannot be read at all (permissions) is named and nothing is changed. \
                Without tags.json while records name tags (not synced yet?), nothing is changed either, \
                unless --no-tags is given. Records the mount will refuse to save as they are (endTime \
                before startTime, over 16 MiB) are migrated and listed for you to fix.

                A legacy file that cannot be parsed or is refused is reported (file and reason) after a \
                first line "migration failed", and the migration is not complete: tags.automerge is not written, so `minutafs mount` still \
                refuses the store. Fix or remove the file and run migrate again. Until a run \
                completes, a rerun replaces what an earlier, failed or stopped run wrote with the \
                current values of the legacy files; running it again is always safe.

                The verification reads the legacy files again at the end and fails (exit 1, each \
                difference named, no cleanup) if a value differs from the documents or a file was \
                not migrated.

                A minutafs mount (or a folder in one) is refused, naming the store it mounts: it only \
                looks like a legacy store. So is a folder in any other FUSE filesystem, unless \
                --allow-fuse-destination is given.

                --cleanup removes tags.json, its conflict copies and the records' JSON files, only \
                after a verified migration. Roll back with `minutafs export STORE DIR` (or restore \
                the backup).

                Exit status: 0 migrated and verified (or nothing to do); 1 a legacy file could not be \
                read, the verification failed, or the store could not be read or written; 64 usage error.

                Examples:
                  minutafs migrate ~/Dropbox/Minuta
                  minutafs migrate ~/Dropbox/Minuta --cleanup --timezone Europe/Berlin
                """)

        @Argument(help: ArgumentHelp("The legacy store folder (the one holding tags.json and records/).", valueName: "store"))
        var store: String

        @Flag(help: "Remove the legacy JSON files after a successful, verified migration.")
        var cleanup = false

        @Option(help: ArgumentHelp("The time zone records are filed in by month (default: the local one).", valueName: "zone"))
        var timezone: String?

        @Option(help: ArgumentHelp("Where to put the backup, a new or empty folder (default: STORE.backup-YYYYMMDD-HHMMSS beside the store).", valueName: "folder"))
        var backupDir: String?

        @Flag(name: .customLong("no-tags"),
              help: "Migrate a store that has no tags.json although its records name tags (records keep their tag ids).")
        var noTags = false

        @Flag(name: .customLong("allow-fuse-destination"),
              help: "Migrate a store inside a FUSE filesystem (sshfs, rclone, ...); never a minutafs mount.")
        var allowFUSEDestination = false

        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            try TimeZoneOption.validate(timezone)
        }

        func run() throws {
            let logger = logging.makeLogger()
            try reportingFailures { try migrate(logger: logger) }
        }

        private func migrate(logger: Logger) throws {
            guard let opened = try openLegacyStore(logger: logger) else { return }
            // Not while a mount (or another command) writes the store's documents: held to the end.
            defer { withExtendedLifetime(opened.lock) {} }
            let storePath = opened.path
            let progress = ProgressDisplay()
            let (contents, migration) = try readAndPrepare(storePath: storePath, zone: opened.zone, progress: progress, logger: logger)
            // Refused before anything is changed: files the backup could not copy, and a store
            // whose records name tags that exist nowhere because tags.json is missing.
            try refuseUnreadable(contents.failures.filter(\.isUnreadable), storePath: storePath)
            let hasTagsDocument = FileManager.default.fileExists(atPath: storePath + "/" + DocumentName.tagsPath)
            try checkTags(contents: contents, migration: migration, hasTagsDocument: hasTagsDocument, storePath: storePath, logger: logger)
            for note in migration.notes { logger.warning("\(note)") }
            for record in migration.unsaveableRecords { logger.warning("\(record)") }

            let complete = contents.failures.isEmpty
            var outcome = Outcome(contents: contents, migration: migration)
            if migration.hasChanges || (cleanup && complete) {
                outcome.backup = try makeBackup(contents: contents, storePath: storePath, zone: opened.zone, progress: progress, logger: logger)
            }
            if migration.hasChanges {
                outcome.written = try writeDocuments(migration, includingTags: complete, storePath: storePath, progress: progress)
            }
            guard complete else { try failIncomplete(outcome, storePath: storePath) }

            let current = try verify(outcome, hasTagsDocument: hasTagsDocument, storePath: storePath, progress: progress)
            if cleanup {
                do {
                    try LegacyCleanup.removeLegacyFiles(storePath: storePath, files: current.files)
                } catch {
                    throw CommandFailure(path: storePath, cause: "cleanup stopped: \(error.description)")
                }
                print("cleanup: removed \(current.files.count) legacy JSON file\(current.files.count == 1 ? "" : "s") (images kept)")
            }
        }

        /// What a run read, prepared, backed up and wrote: what its summary reports.
        private struct Outcome {
            let contents: LegacyStoreContents
            let migration: Migration
            var backup: String?
            var written = 0
        }

        /// The store's path, its time zone and the lock that keeps other writers out, once the paths are
        /// checked (never a mount, never a FUSE destination unless allowed) and the store is found to be a
        /// legacy one; nil (after saying so) when it was migrated already.
        private func openLegacyStore(logger: Logger) throws -> (path: String, zone: StoreTimeZone, lock: StoreLock)? {
            // A mount looks like a legacy store; migrating it would write its documents through the
            // mount, verify against them and remove every record through it.
            try MountedPath.refuse(store)
            if !allowFUSEDestination { try MountedPath.refuseFUSE(store, option: "--allow-fuse-destination") }
            if let backupDir { try MountedPath.refuse(backupDir) }
            let storePath = store.count > 1 && store.hasSuffix("/") ? String(store.dropLast()) : store
            guard let zone = StoreTimeZone(identifier: timezone) else {
                throw CommandFailure(path: storePath, cause: "unknown time zone \(timezone ?? "")")
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: storePath, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandFailure(path: storePath, cause: "no such folder")
            }
            let lock = try StoreCommandSupport.lockForWriting(MountDaemon.absolute(storePath), hint: "unmount it first")
            let isLegacy: Bool
            do { isLegacy = try LegacyStoreReader.isLegacyStore(storePath) } catch { throw CommandFailure(path: storePath, cause: error.description) }
            guard isLegacy else {
                if FileManager.default.fileExists(atPath: storePath + "/" + DocumentName.tagsPath) {
                    print("nothing to migrate in \(storePath): no tags.json and no records/YYYY/MM/*.json (already migrated)")
                    return nil
                }
                throw CommandFailure(path: storePath, cause: "not a legacy Minuta store (no tags.json and no records/YYYY/MM/*.json)")
            }
            if let backupDir {
                do throws(StoreError) {
                    try MigrationBackup.check(backupDir, forStore: storePath)
                } catch {
                    throw Self.backupFolderFailure(error, path: backupDir)
                }
            }
            logger.debug("migrating", metadata: ["store": "\(storePath)", "timezone": "\(zone.identifier)"])
            for incomplete in MigrationBackup.incompleteBackups(ofStore: storePath) {
                logger.warning("\(incomplete): an incomplete backup left by a run that was stopped while making it; not used (a new backup is made), remove it when you like")
            }
            return (storePath, zone, lock)
        }

        /// The legacy files as read, and the documents' changes prepared from them (nothing written yet).
        private func readAndPrepare(
            storePath: String, zone: StoreTimeZone, progress: ProgressDisplay, logger: Logger
        ) throws -> (LegacyStoreContents, Migration) {
            let contents: LegacyStoreContents
            do {
                contents = try LegacyStoreReader.read(storePath) { done, total in
                    progress.update("reading", done: done, total: total, unit: "files")
                }
            } catch {
                progress.finish()
                throw CommandFailure(path: storePath, cause: error.description)
            }
            for note in contents.notes { logger.info("\(note)") }
            logger.debug("read legacy store", metadata: ["tags": "\(contents.tags.count)", "records": "\(contents.records.count)", "failures": "\(contents.failures.count)"])
            let migration: Migration
            do {
                migration = try Migration.prepare(storePath: storePath, contents: contents, timeZone: zone) { done, total in
                    progress.update("migrating", done: done, total: total, unit: "records")
                }
            } catch {
                progress.finish()
                throw CommandFailure(path: storePath, cause: error.description)
            }
            progress.finish()
            return (contents, migration)
        }

        /// Records that name tag ids no tag has: refused when tags.json is missing (unless `--no-tags`),
        /// a warning otherwise.
        private func checkTags(
            contents: LegacyStoreContents, migration: Migration, hasTagsDocument: Bool, storePath: String, logger: Logger
        ) throws {
            let missingTags = Self.missingTagIDs(contents: contents, migration: migration)
            guard !missingTags.isEmpty else { return }
            let ids = "\(missingTags.ids.count) tag id\(missingTags.ids.count == 1 ? "" : "s")"
            guard !contents.hasTagsFile && !hasTagsDocument else {
                logger.warning("\(Self.records(missingTags.records)) name \(ids) that no tag has (\(missingTags.example)); migrated as they are")
                return
            }
            guard noTags else {
                Self.printError(path: storePath, cause: "migration failed: there is no tags.json, and \(Self.records(missingTags.records)) name\(missingTags.records == 1 ? "s" : "") \(ids) that no tag has (\(missingTags.example)); nothing was changed")
                Self.printError(path: storePath, cause: "if the sync tool has not delivered tags.json yet, wait for it and run `minutafs migrate` again; to migrate without tags (records keep their tag ids, which name no tag), run it with --no-tags")
                throw ExitCode.failure
            }
            logger.warning("no tags.json (--no-tags): \(Self.records(missingTags.records)) keep \(ids) that no tag has; a tags.json synced later is migrated by running `minutafs migrate` again")
        }

        /// Copies every legacy file into the backup folder (`--backup-dir`, or one named by the time);
        /// returns its path. Nothing is changed when it cannot be made.
        private func makeBackup(
            contents: LegacyStoreContents, storePath: String, zone: StoreTimeZone, progress: ProgressDisplay, logger: Logger
        ) throws -> String {
            let destination = backupDir ?? MigrationBackup.defaultPath(
                forStore: storePath,
                atMilliseconds: Int64(Date().timeIntervalSince1970 * 1000), timeZone: zone)
            do throws(StoreError) {
                try MigrationBackup.create(storePath: storePath, files: contents.files + contents.otherFiles, at: destination) { done, total in
                    progress.update("backing up", done: done, total: total, unit: "files")
                    StopPoint.reached("backup", done)
                }
                progress.finish()
            } catch {
                progress.finish()
                switch error {
                case .invalidName, .alreadyExists, .notEmpty:
                    // `existing` may be DESTINATION.incomplete, left by a run stopped while making it.
                    throw Self.backupFolderFailure(error, path: destination)
                default:
                    // The file that failed is named: a legacy file that cannot be read, or the backup folder.
                    throw CommandFailure(path: storePath, cause: "migration failed: cannot make the backup in \(destination), so nothing was changed: \(error.description)")
                }
            }
            logger.debug("backup made", metadata: ["folder": "\(destination)", "files": "\(contents.files.count)"])
            return destination
        }

        /// Writes the prepared documents; returns how many were written.
        private func writeDocuments(_ migration: Migration, includingTags: Bool, storePath: String, progress: ProgressDisplay) throws -> Int {
            defer { progress.finish() }
            do {
                return try migration.write(includingTags: includingTags) { done, total in
                    progress.update("writing", done: done, total: total, unit: "documents")
                    StopPoint.reached("write", done)
                }
            } catch {
                throw CommandFailure(path: storePath, cause: "migration failed while writing the documents: \(error.description)")
            }
        }

        /// Some legacy entries could not be read: what was done is reported, each entry named, and the
        /// store is not marked migrated.
        private func failIncomplete(_ outcome: Outcome, storePath: String) throws -> Never {
            let count = outcome.contents.failures.count
            let cause = "\(count) legacy entr\(count == 1 ? "y" : "ies") could not be read; the migration is not complete and \(store) is not migrated (fix \(count == 1 ? "it" : "them") and run `minutafs migrate` again)"
            printSummary(failure: cause, contents: outcome.contents, migration: outcome.migration, written: outcome.written,
                         tagsWritten: FileManager.default.fileExists(atPath: storePath + "/" + DocumentName.tagsPath), backup: outcome.backup)
            for failure in outcome.contents.failures {
                Self.printError(path: storePath + "/" + failure.file, cause: failure.reason)
            }
            throw CommandFailure(path: storePath, cause: cause)
        }

        /// Compares the documents with the legacy files as they are now, not as they were read: an edit
        /// or a new file during the run is a difference, never removed by --cleanup. On a difference the
        /// store stays unmigrated and the command fails; otherwise the summary is printed and the legacy
        /// files as read again are returned.
        private func verify(
            _ outcome: Outcome, hasTagsDocument: Bool, storePath: String, progress: ProgressDisplay
        ) throws -> LegacyStoreContents {
            StopPoint.pause("verify")
            let current: LegacyStoreContents
            do {
                current = try LegacyStoreReader.read(storePath) { done, total in
                    progress.update("re-reading", done: done, total: total, unit: "files")
                }
            } catch {
                progress.finish()
                throw CommandFailure(path: storePath, cause: "verification: \(error.description)")
            }
            var problems = current.failures.map { "\($0.file): \($0.reason)" }
            let migrated = Set(outcome.contents.files)
            for file in current.files where !migrated.contains(file) {
                problems.append("\(file): appeared during the migration and was not migrated")
            }
            let verification = MigrationVerification(storePath: storePath, contents: current) { done, total in
                progress.update("verifying", done: done, total: total, unit: "steps")
            }
            progress.finish()
            problems += verification.problems
            guard problems.isEmpty else { try failVerification(outcome, problems: problems, storePath: storePath) }
            printSummary(failure: nil, contents: outcome.contents, migration: outcome.migration, written: outcome.written,
                         tagsWritten: true, backup: outcome.backup)
            let tagsNote = outcome.contents.hasTagsFile || hasTagsDocument ? "" : " (no tags.json)"
            print("verified: \(verification.tagsFound) of \(current.tags.count) tags\(tagsNote) and \(verification.recordsFound) of \(current.records.count) records are in the documents with the same values (the documents hold \(verification.documentTags) tags and \(verification.documentRecords) records)")
            return current
        }

        /// The documents differ from the legacy files: a store this run would have marked migrated stays
        /// unmigrated, so that a rerun replaces what this run wrote with the legacy files' values then.
        private func failVerification(_ outcome: Outcome, problems: [String], storePath: String) throws -> Never {
            var unmarked = false
            var unmarkFailure: String?
            do { unmarked = try outcome.migration.unmarkMigrated() } catch { unmarkFailure = error.description }
            let cause = "verification failed: \(problems.count) difference\(problems.count == 1 ? "" : "s") between the legacy files and the documents; the legacy files were left in place"
            printSummary(failure: cause, contents: outcome.contents, migration: outcome.migration, written: outcome.written,
                         tagsWritten: FileManager.default.fileExists(atPath: storePath + "/" + DocumentName.tagsPath), backup: outcome.backup)
            for problem in problems { Self.printError(path: storePath, cause: problem) }
            if unmarked {
                Self.printError(path: storePath + "/" + DocumentName.tagsPath, cause: "removed again: the store stays unmigrated; run `minutafs migrate` again")
            }
            if let unmarkFailure { Self.printError(path: storePath, cause: unmarkFailure) }
            throw CommandFailure(path: storePath, cause: cause)
        }

        /// Stops before anything is changed when legacy files cannot be read at all: the backup
        /// could not copy them. Names each file, and says what to do.
        private func refuseUnreadable(_ unreadable: [LegacyReadFailure], storePath: String) throws {
            guard !unreadable.isEmpty else { return }
            let count = unreadable.count
            Self.printError(path: storePath, cause: "migration failed: \(count) legacy file\(count == 1 ? "" : "s") cannot be read, so \(count == 1 ? "it" : "they") can be neither migrated nor backed up; nothing was changed")
            for failure in unreadable { Self.printError(path: storePath + "/" + failure.file, cause: failure.reason) }
            throw ExitCode.failure
        }

        /// Tag ids that records name and no tag has (in tags.json, its copies or tags.automerge):
        /// how many records, which ids, and one example for the message.
        static func missingTagIDs(contents: LegacyStoreContents, migration: Migration) -> (records: Int, ids: Set<RecordID>, example: String, isEmpty: Bool) {
            let known = Set(contents.tags.map { RecordID($0.id) }).union(migration.tagIDsInDocument)
            var ids = Set<RecordID>()
            var records = 0
            var example = ""
            for entry in contents.records {
                guard let tagId = entry.record.tagId, !known.contains(RecordID(tagId)) else { continue }
                if ids.isEmpty { example = "\(tagId) in \(entry.file)" }
                ids.insert(RecordID(tagId))
                records += 1
            }
            return (records, ids, example, ids.isEmpty)
        }

        static func records(_ count: Int) -> String { "\(count) record\(count == 1 ? "" : "s")" }

        /// The failure line for a backup folder that cannot be used.
        static func backupFolderFailure(_ error: StoreError, path: String) -> CommandFailure {
            switch error {
            case .invalidName: CommandFailure(path: path, cause: "inside the store, where the sync tool would upload it; choose a backup folder outside it")
            case .notEmpty: CommandFailure(path: path, cause: "a folder that is not empty; choose a new or empty backup folder")
            case .alreadyExists(let existing) where existing != path:
                CommandFailure(path: existing, cause: "already exists; choose a new backup folder")
            case .alreadyExists: CommandFailure(path: path, cause: "already exists and is not a folder; choose a new or empty backup folder")
            default: CommandFailure(path: path, cause: error.description)
            }
        }

        /// What the run did. A failed run says so on its first line, and its summary is flushed
        /// before the error lines follow on standard error, so that it reads in order in one log.
        private func printSummary(failure: String?, contents: LegacyStoreContents, migration: Migration, written: Int, tagsWritten: Bool, backup: String?) {
            let s = migration.summary
            if let failure {
                print("migration failed: \(failure)")
                print("what this run did in \(store):")
            } else {
                print(migration.hasChanges ? "migrated \(store)" : "nothing to write in \(store): every tag and record is already in the documents")
            }
            var tags = "\(s.tagsAdded) added, \(s.tagsPresent) already there"
            if !tagsWritten && s.tagsAdded > 0 { tags = "\(s.tagsAdded) to add, not written (tags.automerge is written only once every legacy file is read), \(s.tagsPresent) already there" }
            if s.tagsKept > 0 { tags += ", \(s.tagsKept) already there with other values (kept)" }
            print("  tags:      \(tags)")
            var records = "\(s.recordsAdded) added, \(s.recordsPresent) already there"
            if s.recordsReplaced > 0 { records += ", \(s.recordsReplaced) replaced (other values from an unfinished run)" }
            if s.recordsRemoved > 0 { records += ", \(s.recordsRemoved) removed (from an unfinished run, in no legacy file now)" }
            if s.recordsKept > 0 { records += ", \(s.recordsKept) already there with other values (kept)" }
            print("  records:   \(records); \(s.runningTimers) running timer\(s.runningTimers == 1 ? "" : "s")")
            print("  images:    \(s.images) listed, \(s.imagesCopied) copied into another month folder")
            print("  documents: \(written) written")
            if !contents.failures.isEmpty { print("  unreadable: \(contents.failures.count)") }
            if !migration.unsaveableRecords.isEmpty {
                print("  to fix:    \(Self.records(migration.unsaveableRecords.count)) the mount will refuse to save as they are (listed above)")
            }
            if let backup {
                let others = contents.otherFiles.count
                print("  backup:    \(backup) (\(contents.files.count) JSON file\(contents.files.count == 1 ? "" : "s") and \(others) other file\(others == 1 ? "" : "s"), images included)")
            }
            fflush(nil) // every C stream: standard output is buffered when it is not a terminal
        }

        static func cause(_ error: StoreError) -> String { DocumentFile.cause(error) }

        static func printError(path: String, cause: String) {
            let line = "minutafs: \(path): \(cause)".split(whereSeparator: \.isNewline).joined(separator: " ")
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }
}
