import ArgumentParser
import Foundation
import Glibc
import MinutaStore
import SystemPackage

extension Minutafs {
    /// `minutafs restore SNAPSHOT_RECORD` and `minutafs restore --tag NAME SNAPSHOT`: sets one record
    /// or one tag back to a history snapshot, changing nothing else (SPEC 5b, section 8).
    ///
    /// It writes through the mount's own files, so the mount stays the single writer: a record's
    /// snapshot JSON goes to the file that shows that record now (found by `id`, wherever it moved),
    /// a tag's snapshot object replaces only that tag's object in the live `tags.json`.
    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Set one record or one tag back to how a history snapshot shows it.",
            discussion: """
                Give a record file of a snapshot under MOUNT/.minutafs/history/ to set that record back \
                to those values, or --tag with a snapshot (its folder or its tags.json) to set back one \
                tag. Nothing else changes: records and tags created, edited, renamed, archived or \
                deleted since keep their current values. The write goes through the mount, as an \
                ordinary save: only the fields that differ change, in a new change every device gets.

                A record is found by its id wherever it is now (another month, another file name); one \
                deleted since is created again with the same id. A tag is named by its id, or by its \
                name in the snapshot (or its name now, when it was renamed); one deleted since comes \
                back with the same id.

                `cp SNAPSHOT/tags.json MOUNT/tags.json` instead sets EVERY tag back to that instant: \
                tags created since are deleted, and renames and archivings since are undone.

                After the write it reads the record or tag back from the mount: "restored" is printed \
                only when it is as in the snapshot.

                Exit status: 0 restored (or already as in the snapshot); 1 the path is not in a \
                snapshot, the record or tag is not there, the mount refused the write (the reason \
                is in MOUNT/.minutafs/errors), or the record or tag read back differs from the \
                snapshot (each field that differs is named); 64 usage error.

                Examples:
                  H=~/minuta/.minutafs/history
                  minutafs restore $H/2024-11-24T08:00/records/2024/11/2024-11-22_090200.json
                  minutafs restore --tag Meetings $H/2024-11-22
                  minutafs restore --tag 62ACF36B-A9BB-4187-B573-0E4353BE559D \\
                      $H/2024-11-22/tags.json
                """)

        @Argument(help: ArgumentHelp(
            "A record file in a snapshot (MOUNT/.minutafs/history/DAY/records/YYYY/MM/NAME.json); with --tag, the snapshot folder or its tags.json.",
            valueName: "snapshot-path"))
        var snapshotPath: String

        @Option(help: ArgumentHelp("Restore this one tag (its id, or its name) from the snapshot's tags.json.", valueName: "name-or-id"))
        var tag: String?

        func validate() throws {
            if let tag, tag.isEmpty { throw ValidationError("--tag needs a tag name or id") }
        }

        func run() throws {
            try reportingFailures {
                do throws(RestoreError) {
                    let location = try SnapshotLocation(snapshotPath)
                    let outcome = if let tag { try location.restoreTag(tag) } else { try location.restoreRecord() }
                    print(outcome)
                } catch {
                    throw CommandFailure(path: snapshotPath, cause: error.description)
                }
            }
        }
    }
}

/// Why `minutafs restore` did not restore: the line after `minutafs: PATH: `.
enum RestoreError: Error, CustomStringConvertible {
    /// The path is not under `MOUNT/.minutafs/history/INSTANT/` of a minutafs mount.
    case notInSnapshot(reason: String)
    /// Without `--tag`, a path in a snapshot that is not a record file.
    case notARecordFile
    /// Without `--tag`, the snapshot's `tags.json`.
    case tagsFileWithoutTag
    /// With `--tag`, a path that is neither the snapshot folder nor its `tags.json`.
    case notTheTagsFile
    case unreadable(file: String, reason: String)
    case malformed(file: String, reason: String)
    /// No tag of the snapshot has that id or name; `candidates` are the snapshot's tags.
    case unknownTag(String, candidates: [TagSummary])
    /// Several tags of the snapshot have that name.
    case ambiguousTag(String, candidates: [TagSummary])
    /// The mount refused or failed the write.
    case writeFailed(file: String, operation: String, errno: Int32, mountRoot: String)
    /// The write returned 0, but the record or tag read back is not as in the snapshot: `differences`
    /// names each field (`endTime is "…", the snapshot has "…"`).
    case notApplied(file: String, differences: [String], mountRoot: String)

    /// A tag as the messages name it: `"Meeting" (3499450C-...)`.
    struct TagSummary {
        let name: String
        let id: String
        var description: String { "\(quoted(name)) (\(id))" }
    }

    var description: String {
        switch self {
        case .notInSnapshot(let reason):
            "\(reason); give a record file of a snapshot (MOUNT/.minutafs/history/DAY/records/YYYY/MM/NAME.json), or --tag NAME and a snapshot (MOUNT/.minutafs/history/DAY or its tags.json)"
        case .notARecordFile:
            "not a record file of a snapshot; give MOUNT/.minutafs/history/DAY/records/YYYY/MM/NAME.json, or --tag NAME to restore a tag"
        case .tagsFileWithoutTag:
            "give --tag NAME or ID to restore one tag (cp of tags.json would set every tag back to that instant)"
        case .notTheTagsFile:
            "--tag restores from a snapshot's tags.json; give MOUNT/.minutafs/history/DAY or MOUNT/.minutafs/history/DAY/tags.json"
        case .unreadable(let file, let reason):
            "\(file): cannot be read: \(reason)"
        case .malformed(let file, let reason):
            "\(file): \(reason)"
        case .unknownTag(let name, let candidates):
            "no tag \(quoted(name)) in the snapshot; its tags: "
                + (candidates.isEmpty ? "none" : candidates.map(\.description).joined(separator: ", "))
        case .ambiguousTag(let name, let candidates):
            "\(candidates.count) tags are named \(quoted(name)) in the snapshot: "
                + candidates.map(\.description).joined(separator: ", ") + "; give the id of one"
        case .writeFailed(let file, let operation, let errno, let mountRoot):
            errno == EINVAL
                ? "\(file): the mount refused the restored content; the reason is in \(mountRoot)/.minutafs/errors"
                : "\(file): \(operation) failed: \(String(cString: strerror(errno)))"
        case .notApplied(let file, let differences, let mountRoot):
            "\(file): not restored: read back after the write, " + differences.joined(separator: "; ")
                + "; see \(mountRoot)/.minutafs/conflicts and \(mountRoot)/.minutafs/errors"
        }
    }
}

/// A name as JSON writes it, quoted and with control characters escaped: commands never print a
/// control character from a document to the terminal (SPEC section 9).
private func quoted(_ text: String) -> String {
    String(decoding: JSONWriter.pretty(.string(text)).dropLast(), as: UTF8.self)
}

/// A path inside `MOUNT/.minutafs/history/INSTANT/`: the mount it belongs to (from the kernel's
/// mount table, never from what the folder holds) and what it names in the snapshot.
struct SnapshotLocation {
    /// The mount point of the minutafs mount.
    let mountRoot: String
    /// `MOUNT/.minutafs/history/INSTANT`.
    let snapshotRoot: String
    /// The instant's folder name (`2024-11-22`, `2024-11-24T08:00`).
    let instant: String
    /// The components below the snapshot folder (`[]`, `["tags.json"]`, `["records", "2024", "03", "X.json"]`).
    let inside: [String]

    init(_ path: String) throws(RestoreError) {
        // Resolved, so a symbolic link to the mount or a relative path still finds the mount.
        let absolute = realpath(path, nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        } ?? MountTable.absolutePath(of: FilePath(path)).string
        let table: MountTable
        do { table = try MountTable.current() } catch { throw .notInSnapshot(reason: "cannot read the mount table: \(error.description)") }
        guard let mount = table.mount(containing: FilePath(absolute)), mount.isMinutafs else {
            throw .notInSnapshot(reason: "not in a minutafs mount")
        }
        let mountPoint = mount.mountPoint.string
        let below = absolute.dropFirst(mountPoint.count).split(separator: "/").map(String.init)
        guard below.count >= 3, below[0] == ".minutafs", below[1] == "history" else {
            throw .notInSnapshot(reason: "not in a history snapshot of \(mountPoint)")
        }
        mountRoot = mountPoint
        instant = below[2]
        snapshotRoot = mountPoint + "/.minutafs/history/" + below[2]
        inside = Array(below.dropFirst(3))
    }

    // MARK: Records

    /// Writes the snapshot's record file to the file that shows that record now, or creates it in
    /// its snapshot month folder when the record was deleted since. Returns the line to print.
    func restoreRecord() throws(RestoreError) -> String {
        if inside == ["tags.json"] { throw .tagsFileWithoutTag }
        guard inside.count == 4, inside[0] == "records", inside[3].hasSuffix(".json") else { throw .notARecordFile }
        let snapshotFile = snapshotRoot + "/" + inside.joined(separator: "/")
        let bytes = try Self.read(snapshotFile)
        guard case .string(let id)? = try Self.parse(bytes, file: snapshotFile)["id"], UUIDText.isValid(id) else {
            throw .malformed(file: snapshotFile, reason: "a record file has an \"id\"; this one has none")
        }
        let snapshotMonth = mountRoot + "/" + inside[0 ..< 3].joined(separator: "/")
        if let live = liveRecordFile(holding: RecordID(id), preferring: snapshotMonth) {
            if let current = try? Self.read(live), current == bytes { return "record \(id) is already as in \(instant): \(live)" }
            try write(bytes, to: live, creating: false)
            let restored = try readBack(RecordID(id), as: bytes, snapshotFile: snapshotFile, preferring: snapshotMonth, written: live)
            // Its start may have moved it to another month folder: both names are said.
            return "restored record \(id) as of \(instant): \(live)" + (restored == live ? "" : " (now \(restored))")
        }
        // Deleted since: created again under its id, in the month folder it was in (the mount files
        // it by its start). The snapshot's name may show another record now; then its id names it.
        try makeFolder(snapshotMonth)
        var target = snapshotMonth + "/" + inside[3]
        if access(target, F_OK) == 0 { target = snapshotMonth + "/" + RecordID(id).text + ".json" }
        try write(bytes, to: target, creating: true)
        let restored = try readBack(RecordID(id), as: bytes, snapshotFile: snapshotFile, preferring: snapshotMonth, written: target)
        return "restored deleted record \(id) as of \(instant): \(target)" + (restored == target ? "" : " (now \(restored))")
    }

    /// The live record file of `id` after a restore wrote `bytes` (it may have moved with its start):
    /// its path, when it shows what the snapshot shows.
    /// - Throws: ``RestoreError/notApplied(file:differences:mountRoot:)`` naming each field that differs.
    private func readBack(_ id: RecordID, as bytes: [UInt8], snapshotFile: String, preferring month: String, written: String) throws(RestoreError) -> String {
        let expected = try Self.parse(bytes, file: snapshotFile)
        guard let live = liveRecordFile(holding: id, preferring: month) else {
            throw .notApplied(file: written, differences: ["the record is not in the mount"], mountRoot: mountRoot)
        }
        let differences = Self.differences(try Self.parse(try Self.read(live), file: live), from: expected)
        guard differences.isEmpty else { throw .notApplied(file: live, differences: differences, mountRoot: mountRoot) }
        return live
    }

    /// Each member where `live` differs from the snapshot's `expected` object, as a phrase.
    static func differences(_ live: JSONValue, from expected: JSONValue) -> [String] {
        guard case .object(let liveMembers) = live, case .object(let expectedMembers) = expected else {
            return live == expected ? [] : ["it is not the snapshot's object"]
        }
        let keys = (expectedMembers.map(\.key) + liveMembers.map(\.key)).reduce(into: [String]()) { keys, key in
            if !keys.contains(key) { keys.append(key) }
        }
        return keys.compactMap { key -> String? in
            let now = liveMembers.first { $0.key == key }?.value
            let then = expectedMembers.first { $0.key == key }?.value
            guard now != then else { return nil }
            return "\(key) is \(now.map(Self.shown) ?? "absent"), the snapshot has \(then.map(Self.shown) ?? "none")"
        }
    }

    /// A value as one line of JSON.
    private static func shown(_ value: JSONValue) -> String {
        String(decoding: JSONWriter.pretty(value).dropLast(), as: UTF8.self)
            .split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }.joined(separator: " ")
    }

    /// The live record file that shows `id`: in `preferredMonth` first, then in every month folder.
    /// Each file's `id` decides (names are views of records, SPEC section 4).
    private func liveRecordFile(holding id: RecordID, preferring preferredMonth: String) -> String? {
        let records = mountRoot + "/records"
        let years = ((try? FileManager.default.contentsOfDirectory(atPath: records)) ?? []).filter { Month.isYearName($0) }.sorted()
        let months = years.flatMap { year in
            ((try? FileManager.default.contentsOfDirectory(atPath: records + "/" + year)) ?? []).filter(Self.isMonth).sorted().map { records + "/" + year + "/" + $0 }
        }
        for month in [preferredMonth] + months.filter({ $0 != preferredMonth }) {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: month)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
            if let name = names.first(where: { recordID(of: month + "/" + $0) == id }) { return month + "/" + name }
        }
        return nil
    }

    private func recordID(of file: String) -> RecordID? {
        guard let bytes = try? Self.read(file), let value = try? JSONParser.parse(bytes), case .string(let id)? = value["id"] else { return nil }
        return RecordID(id)
    }

    private static func isMonth(_ name: String) -> Bool { name.count == 2 && name.allSatisfy { $0.isASCII && $0.isNumber } }

    private func makeFolder(_ folder: String) throws(RestoreError) {
        var path = mountRoot
        for component in folder.dropFirst(mountRoot.count).split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o755) != 0 && errno != EEXIST { throw .writeFailed(file: path, operation: "mkdir", errno: errno, mountRoot: mountRoot) }
        }
    }

    // MARK: Tags

    /// Replaces (or adds back) only the named tag's object in the live `tags.json` with the
    /// snapshot's, and writes the list back through the mount. Returns the line to print.
    func restoreTag(_ nameOrID: String) throws(RestoreError) -> String {
        guard inside.isEmpty || inside == ["tags.json"] else { throw .notTheTagsFile }
        let snapshotFile = snapshotRoot + "/tags.json"
        let liveFile = mountRoot + "/tags.json"
        let snapshotTags = try Self.tags(in: snapshotFile)
        let liveTags = try Self.tags(in: liveFile)
        let chosen = try Self.tag(named: nameOrID, in: snapshotTags, live: liveTags)
        guard case .string(let id)? = chosen["id"] else { throw .malformed(file: snapshotFile, reason: "a tag without \"id\"") }
        let summary = RestoreError.TagSummary(name: Self.name(of: chosen), id: id)

        var restored = liveTags
        if let index = liveTags.firstIndex(where: { Self.id(of: $0) == RecordID(id) }) {
            if liveTags[index] == chosen { return "tag \(summary.description) is already as in \(instant)" }
            restored[index] = chosen
        } else {
            restored.append(chosen)
        }
        try write(JSONWriter.pretty(.object([(key: "tags", value: .array(restored))])), to: liveFile, creating: false)
        // Read back: "restored" only for a tag that is as in the snapshot now.
        let readBack = try Self.tags(in: liveFile).first { Self.id(of: $0) == RecordID(id) }
        guard let readBack else { throw .notApplied(file: liveFile, differences: ["tag \(summary.description) is not in it"], mountRoot: mountRoot) }
        let differences = Self.differences(readBack, from: chosen)
        guard differences.isEmpty else {
            throw .notApplied(file: liveFile, differences: differences.map { "tag \(summary.description): " + $0 }, mountRoot: mountRoot)
        }
        return "restored tag \(summary.description) as of \(instant)"
    }

    /// The tags of a `tags.json` (`{"tags": [...]}`).
    private static func tags(in file: String) throws(RestoreError) -> [JSONValue] {
        guard case .array(let tags)? = try parse(try read(file), file: file)["tags"] else {
            throw .malformed(file: file, reason: "not {\"tags\": [...]}")
        }
        return tags
    }

    /// The snapshot's tag that `nameOrID` names: by id; else by its name in the snapshot; else by
    /// the name a live tag has now (a tag renamed since), through its id.
    private static func tag(named nameOrID: String, in snapshot: [JSONValue], live: [JSONValue]) throws(RestoreError) -> JSONValue {
        if UUIDText.isValid(nameOrID), let tag = snapshot.first(where: { id(of: $0) == RecordID(nameOrID) }) { return tag }
        var matches = snapshot.filter { name(of: $0) == nameOrID }
        if matches.isEmpty {
            let renamed = Set(live.filter { name(of: $0) == nameOrID }.compactMap(id(of:)))
            matches = snapshot.filter { id(of: $0).map(renamed.contains) == true }
        }
        let summaries = { (tags: [JSONValue]) in
            tags.map { RestoreError.TagSummary(name: name(of: $0), id: id(of: $0)?.text ?? "no id") }
        }
        guard let first = matches.first else { throw .unknownTag(nameOrID, candidates: summaries(snapshot)) }
        guard matches.count == 1 else { throw .ambiguousTag(nameOrID, candidates: summaries(matches)) }
        return first
    }

    private static func id(of tag: JSONValue) -> RecordID? {
        guard case .string(let id)? = tag["id"] else { return nil }
        return RecordID(id)
    }

    private static func name(of tag: JSONValue) -> String {
        guard case .string(let name)? = tag["name"] else { return "" }
        return name
    }

    // MARK: Files

    private static func read(_ file: String) throws(RestoreError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: file) else {
            let reason = access(file, F_OK) == 0 ? String(cString: strerror(errno)) : "no such file"
            throw .unreadable(file: file, reason: reason)
        }
        return [UInt8](data)
    }

    private static func parse(_ bytes: [UInt8], file: String) throws(RestoreError) -> JSONValue {
        do { return try JSONParser.parse(bytes) } catch { throw .malformed(file: file, reason: "not JSON: \(error.description)") }
    }

    /// Writes `bytes` to a file of the mount as `cp` does (truncate and write), then `fsync` (the
    /// store has it on disk when it returns) and `close` (where the mount refuses bad content).
    private func write(_ bytes: [UInt8], to file: String, creating: Bool) throws(RestoreError) {
        let flags = O_WRONLY | O_TRUNC | O_CLOEXEC | (creating ? O_CREAT | O_EXCL : 0)
        let descriptor = open(file, flags, 0o644)
        guard descriptor >= 0 else { throw .writeFailed(file: file, operation: "open", errno: errno, mountRoot: mountRoot) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let failure = errno
                close(descriptor)
                throw .writeFailed(file: file, operation: "write", errno: failure, mountRoot: mountRoot)
            }
            written += count
        }
        if fsync(descriptor) != 0 {
            let failure = errno
            close(descriptor)
            throw .writeFailed(file: file, operation: "fsync", errno: failure, mountRoot: mountRoot)
        }
        if close(descriptor) != 0 { throw .writeFailed(file: file, operation: "close", errno: errno, mountRoot: mountRoot) }
    }
}
