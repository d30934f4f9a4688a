import ArgumentParser
import Foundation
import Logging
import MinutaDemo
import MinutaStore

extension Minutafs {
    /// `minutafs demo DIR`: a sample store to try things on.
    struct Demo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "demo",
            abstract: "Write a sample store to try minutafs on.",
            discussion: """
                Writes a store as the Minuta app would: a few tags (one archived), a year of time \
                records made on a phone and a laptop, comments in several languages (some stored as \
                text objects), a few small images, one running timer, and one Dropbox conflict copy of \
                last month's document with a concurrent edit, waiting to be merged (`minutafs check` \
                lists it, `minutafs merge` merges it, a mount merges it at once). The same --seed, \
                --now and --timezone give the same store.

                DIR must not exist or be empty.

                Exit status: 0 written; 1 DIR is not empty or could not be written; 64 usage error.

                Examples:
                  minutafs demo ./demo-store
                  minutafs demo ./store-2025 --seed 7 --now 2025-06-30T12:00:00Z --timezone UTC
                """)

        @Argument(help: ArgumentHelp("The folder to write the store to (new or empty).", valueName: "dir"))
        var directory: String

        @Option(help: "The seed the records are drawn with.")
        var seed: UInt64 = 1

        @Option(help: ArgumentHelp("The demo's present (ISO 8601): records cover the year before it (default: now).", valueName: "date"))
        var now: String?

        @Option(help: ArgumentHelp("The time zone the records' days and months are in (default: the local one).", valueName: "zone"))
        var timezone: String?

        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            try TimeZoneOption.validate(timezone)
            if let now, ISO8601.milliseconds(from: now) == nil {
                throw ValidationError("--now: expected an ISO 8601 date such as 2025-06-30T12:00:00Z, got \(now)")
            }
        }

        func run() throws {
            let logger = logging.makeLogger()
            try reportingFailures {
                // Written through a mount, the documents would be files the mount refuses (SPEC 5b).
                try MountedPath.refuse(directory, instead: .folderOutside)
                guard let zone = StoreTimeZone(identifier: timezone) else {
                    throw CommandFailure(path: directory, cause: "unknown time zone \(timezone ?? "")")
                }
                let present = now.flatMap(ISO8601.milliseconds(from:)) ?? Int64(Date().timeIntervalSince1970 * 1000)
                let summary: DemoStore.Summary
                do throws(StoreError) {
                    summary = try DemoStore.write(to: directory, seed: seed, now: present, timeZone: zone)
                } catch {
                    switch error {
                    case .notEmpty: throw CommandFailure(path: directory, cause: "not empty; the demo is written only into a new or empty folder")
                    case .alreadyExists: throw CommandFailure(path: directory, cause: "exists and is not a folder")
                    default: throw CommandFailure(path: directory, cause: DocumentFile.cause(error))
                    }
                }
                logger.debug("demo written", metadata: ["seed": "\(seed)", "timezone": "\(zone.identifier)"])
                print("""
                    wrote a demo store to \(directory): \(summary.tags) tags, \(summary.records) records in \(summary.months) month documents \
                    (\(summary.textComments) comments as text objects, \(summary.runningTimers) running timer), \(summary.images) images
                    conflict copy waiting to be merged: \(summary.conflictCopy)
                    try: minutafs check \(directory); minutafs mount \(directory) ./mnt
                    """)
            }
        }
    }
}
