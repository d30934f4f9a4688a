import ArgumentParser
import Foundation
import Glibc
import MinutaStore

extension Minutafs {
    /// `minutafs log FILE` and `minutafs log STORE RECORD_ID`: every change that touched a record.
    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract: "Show every change that touched a record, oldest first.",
            discussion: """
                One line per change: its effective time (UTC; a change's own time, or the latest of the \
                changes it builds on when that is later: the app's commits may carry no time), the device \
                (the first 8 hex digits of the writer's actor id), what it did (created, edited, deleted) \
                and each field it set or removed, with the value before and after as the record file shows \
                them ((none) when absent; a comment is shown as its text; "before" is the record as that \
                device saw it). Every change that set or removed a field is listed: when two changes \
                that did not see each other set the same field, both are marked "(concurrent with ...)" \
                and the value the store did not keep is marked "(lost)" (an edit of a record deleted at \
                the same time is lost too). --json prints one JSON object per line instead.

                For a record file in a mount, the saves of that record the mount did not apply as \
                written (a program saved a value it had read before another device's change was \
                merged) and the merged values saves replaced follow, as `.minutafs/conflicts` lists \
                them ({"conflict": LINE} with --json).

                Given a store folder, each document is read merged in memory with the conflict copies \
                waiting beside it, as a mount shows it; nothing is written, and standard error says how \
                many copies were merged.

                To see a record as it was, use MOUNT/.minutafs/history/; to bring it back, `minutafs restore` (see `man minutafs`).

                Exit status: 0 printed; 1 no document of the store ever held a record with that id, the \
                file is not a record of a mount, or the store could not be read; 64 usage error.

                Examples:
                  minutafs log ~/minuta/records/2024/03/2024-03-04_090500.json
                  minutafs log ~/Dropbox/Minuta 7B0A1F99-0033-4FF8-AAD8-7D8C0815C638
                  minutafs log --json ~/minuta/records/2024/03/2024-03-04_090500.json | jq .
                """)

        @Argument(help: ArgumentHelp("A record file in a mount, or a store folder followed by a record id.", valueName: "file-or-store"))
        var target: String

        @Argument(help: ArgumentHelp("The record's id, when the first argument is a store folder.", valueName: "record-id"))
        var recordID: String?

        @Flag(help: "One JSON object per line.")
        var json = false

        func run() throws {
            try reportingFailures {
                let storePath: String
                let id: String
                var mountRoot: String?
                if let recordID {
                    // The store-folder form: a mount is not a store (a record file in it is the other form).
                    try MountedPath.refuse(target)
                    storePath = target
                    id = recordID
                } else {
                    (storePath, id, mountRoot) = try Self.recordOfMountedFile(target)
                }
                let store = try StoreCommandSupport.openExistingStore(storePath, readOnly: true)
                let log: RecordLog
                do { log = try RecordLog(recordID: id, in: store) } catch let error as StoreError { throw CommandFailure(path: storePath, cause: error.description) }
                guard !log.entries.isEmpty else { throw Self.unknownRecord(id, store: storePath) }
                for line in json ? log.jsonLines() : log.lines() { print(line) }
                let conflicts = mountRoot.map { Self.conflictLines(of: id, mountRoot: $0) } ?? []
                if !conflicts.isEmpty {
                    if json {
                        for line in conflicts { print("{\"conflict\": " + JSONWriter.string(line) + "}") }
                    } else {
                        print("saves through the mount (from .minutafs/conflicts):")
                        for line in conflicts { print("  " + line) }
                    }
                }
                WaitingCopiesNotice.print(for: store)
            }
        }

        /// The lines of the mount's `.minutafs/conflicts` about record `id` (they end in `(record ID)`).
        static func conflictLines(of id: String, mountRoot: String) -> [String] {
            guard let text = try? String(contentsOfFile: mountRoot + "/.minutafs/conflicts", encoding: .utf8) else { return [] }
            let marker = "(RECORD " + RecordID(id).text + ")"
            return text.split(separator: "\n").map(String.init).filter { $0.uppercased().contains(marker) }
        }

        /// The store a mounted record file belongs to (from its mount's `.minutafs/status`), its id, and the
        /// folder the mount serves.
        static func recordOfMountedFile(_ file: String) throws(CommandFailure) -> (store: String, id: String, mountRoot: String) {
            let data = try readRecordFile(file)
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let id = object["id"] as? String else {
                throw CommandFailure(path: file, cause: "not a record file (no \"id\" in it); to name a record by id, give the store folder and the id")
            }
            var folder = URL(fileURLWithPath: file).standardizedFileURL.deletingLastPathComponent()
            while true {
                if let status = try? String(contentsOfFile: folder.path + "/.minutafs/status", encoding: .utf8),
                   let line = status.split(separator: "\n").first(where: { $0.hasPrefix("store: ") }) {
                    return (String(line.dropFirst("store: ".count)), id, folder.path)
                }
                if folder.path == "/" { break }
                folder.deleteLastPathComponent()
            }
            throw CommandFailure(path: file, cause: "not in a minutafs mount (no .minutafs/status above it); give the store folder and the record id instead")
        }

        /// What the one-argument form names: a record file, read whole. A missing path, a folder and a
        /// file this user cannot read each get their own answer.
        static func readRecordFile(_ file: String) throws(CommandFailure) -> Data {
            var status = stat()
            guard stat(file, &status) == 0 else {
                let error = errno
                if error == EACCES { throw StoreFolder.permissionDenied(file) }
                if error == ENOENT || error == ENOTDIR {
                    throw CommandFailure(path: file, cause: "no such file; give a record file in a mount (MOUNT/records/YYYY/MM/NAME.json), or a store folder and a record id")
                }
                throw CommandFailure(path: file, cause: "cannot be read: \(String(cString: strerror(error)))")
            }
            if status.st_mode & S_IFMT == S_IFDIR {
                throw CommandFailure(path: file, cause: "is a folder; give a record file in a mount (MOUNT/records/YYYY/MM/NAME.json), or, for a store folder, the record id after it")
            }
            guard let data = FileManager.default.contents(atPath: file) else {
                if access(file, R_OK) != 0 { throw CommandFailure(path: file, cause: "permission denied: you cannot read this file") }
                throw CommandFailure(path: file, cause: "cannot be read")
            }
            return data
        }

        /// No document of the store ever held a record with this id (a mistyped or shortened id, or one
        /// from another store).
        static func unknownRecord(_ id: String, store: String) -> CommandFailure {
            let shape = UUIDText.isValid(id) ? "" : " (record ids look like 5F1C0D2E-8C0B-4F57-9A57-2B1D3C4E5F60)"
            return CommandFailure(path: store, cause: "no record with id \(id) was ever in this store\(shape); a record's id is the \"id\" in its file (jq -r .id FILE), or run `minutafs log FILE` on the record's file in a mount")
        }
    }
}
