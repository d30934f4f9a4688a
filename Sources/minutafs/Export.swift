import ArgumentParser
import Foundation
import Glibc
import Logging
import MinutaMigration
import MinutaStore

extension Minutafs {
    /// `minutafs export STORE DIR`: the documents back to the legacy JSON layout (the rollback path).
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write a store's tags and records out as a legacy JSON store (the rollback path).",
            discussion: """
                Writes DIR/tags.json ({"tags": [...]}) and one DIR/records/YYYY/MM/YYYY-MM-DD_HHMMSS.json \
                per record, in the format the Minuta app used before Automerge (dates ISO 8601 UTC, a \
                text comment as a string), and copies the images of each month folder. Records are named \
                by their startTime in the store's time zone, as the mount names them. The store is only \
                read; conflict copies waiting beside a document are merged in memory, so the export holds \
                everything every device wrote. `minutafs migrate DIR` turns an export back into documents \
                with the same tags and records.

                DIR must not exist or be empty, and must not be inside the store.

                Exit status: 0 exported; 1 the store could not be read or DIR could not be written; \
                64 usage error.

                Example:
                  minutafs export ~/Dropbox/Minuta ~/minuta-json
                """)

        @Argument(help: ArgumentHelp("The store folder (the one holding tags.automerge and records/).", valueName: "store"))
        var store: String

        @Argument(help: ArgumentHelp("The folder to write the legacy JSON store to (new or empty).", valueName: "dir"))
        var directory: String

        @Option(help: ArgumentHelp("The time zone record file names are made in (default: the local one).", valueName: "zone"))
        var timezone: String?

        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            try TimeZoneOption.validate(timezone)
        }

        func run() throws {
            let logger = logging.makeLogger()
            try reportingFailures {
                guard let zone = StoreTimeZone(identifier: timezone) else {
                    throw CommandFailure(path: store, cause: "unknown time zone \(timezone ?? "")")
                }
                // A mount is not a store, and an export through one would write records into it.
                try MountedPath.refuse(store)
                try MountedPath.refuse(directory)
                try StoreFolder.checkFolder(store)
                let summary: LegacyExporter.Summary
                do throws(StoreError) {
                    summary = try LegacyExporter.export(storePath: store, to: directory, timeZone: zone)
                } catch {
                    throw Self.failure(error, store: store, directory: directory)
                }
                logger.debug("exported", metadata: ["store": "\(store)", "to": "\(directory)"])
                for leftover in summary.leftoversRemoved {
                    logger.notice("removed \(leftover), left by an earlier export into \(directory) that was stopped")
                }
                if !summary.hasTagsDocument {
                    logger.warning("\(store) has no tags.automerge: \(directory)/tags.json lists no tags, and records keep tag ids that name none")
                }
                if summary.conflictCopies > 0 {
                    FileHandle.standardError.write(Data((WaitingCopiesNotice.line(merged: summary.conflictCopies) + "\n").utf8))
                }
                if summary.recordsWithoutStartTime > 0 {
                    logger.warning("\(summary.recordsWithoutStartTime) record(s) have no usable startTime; written as <id>.json, which the legacy app cannot read")
                }
                print("exported \(summary.tags) tag\(summary.tags == 1 ? "" : "s"), \(summary.records) record\(summary.records == 1 ? "" : "s") (\(summary.runningTimers) running) and \(summary.images) image\(summary.images == 1 ? "" : "s") to \(directory)")
            }
        }

        /// The failure line: names the destination for problems with it, the store otherwise.
        static func failure(_ error: StoreError, store: String, directory: String) -> CommandFailure {
            switch error {
            case .notEmpty: CommandFailure(path: directory, cause: "not empty; export into a new or empty folder")
            case .alreadyExists: CommandFailure(path: directory, cause: "exists and is not a folder")
            case .invalidName: CommandFailure(path: directory, cause: "inside the store; export to a folder outside it")
            case .notAStore: CommandFailure(path: store, cause: "not a Minuta store (no tags.automerge and no records/YYYY/MM.automerge)")
            case .notFound: CommandFailure(path: store, cause: "no such folder")
            case .legacyStore: CommandFailure(path: store, cause: "not migrated: a `minutafs migrate` run did not finish (it has tags.json and month documents but no tags.automerge), so an export would lack the tags; run `minutafs migrate \(store)` to finish it, or use its legacy JSON files as they are")
            case let .system(file, operation, errno) where isOnTheWay(file, to: directory):
                CommandFailure(path: directory, cause: "cannot write the export here: \(String(cString: strerror(errno.rawValue))) (\(operation) failed); export into a folder you can write to")
            default: CommandFailure(path: store, cause: error.description)
            }
        }

        /// Whether `file` is the destination, in it, a folder made on the way to it, or the hidden
        /// folder beside it that the export is written into before it is renamed (`LegacyExporter`):
        /// a failure there is the destination's, whatever the path the system call was given.
        static func isOnTheWay(_ file: String, to directory: String) -> Bool {
            let target = BackingFiles.absolutePath(directory)
            let temporaryPrefix = BackingFiles.parentPath(target) + "/." + BackingFiles.lastComponent(target) + ".minutafs-export-"
            return file == target || file.hasPrefix(target + "/") || file.hasPrefix(temporaryPrefix) || target.hasPrefix(file + "/")
        }
    }
}
