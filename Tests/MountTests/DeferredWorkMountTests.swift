import Foundation
import MinutaStore
import Testing
import TestSupport

/// A 0 returned is a promise kept (SPEC 5b): `fsync` of a file of the user's own returns once it is in
/// the backing folder; work the mount defers after a 0 (a removal's grace period, a file held while it
/// may be a save's temporary half) that then fails keeps what it was given, shows it, and says so in
/// `.minutafs/errors` and status. The backing folder is a small tmpfs remounted read-only (root only).
@Suite(.serialized, .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
struct DeferredWorkMountTests {
    /// Opens `path` for writing (created), writes `bytes`, fsyncs, then closes; returns the errno of the
    /// first call that failed (0 when all succeeded) and its name, and runs `afterSync` between fsync and close.
    static func writeSyncClose(_ bytes: [UInt8], to path: String, afterSync: () -> Void = {}) -> (errno: Int32, failedAt: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return (errno, "open") }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            let failure = errno
            close(descriptor)
            return (failure, "write")
        }
        guard fsync(descriptor) == 0 else {
            let failure = errno
            close(descriptor)
            return (failure, "fsync")
        }
        afterSync()
        return close(descriptor) == 0 ? (0, "") : (errno, "close")
    }

    static func remount(_ backing: String, readOnly: Bool) throws {
        let result = try Shell.run("mount -o remount,\(readOnly ? "ro" : "rw") '\(backing)'")
        try #require(result.status == 0, "remount: \(result.output)")
    }

    @Test("fsync of a file that is neither a record nor an image returns once it is in the backing folder")
    func fsyncWritesThrough() throws {
        try BackingFolderFailureTests.withSmallBackingFolder(size: "8m") { folder, backing in
            let mounted = try MountedStore(in: folder, storeName: "backing/store", copyingSample: false)
            let notes = Array("meeting notes\n".utf8)
            var inFolderAfterSync: [UInt8]?
            let result = Self.writeSyncClose(notes, to: mounted.january + "/notes.txt") {
                // Checked before close: the settle delay has not even started yet.
                inFolderAfterSync = try? Fixtures.contents(ofFileAtPath: backing + "/store/records/2024/01/notes.txt")
            }
            #expect(result.errno == 0, "\(result)")
            #expect(inFolderAfterSync == notes)
            // The temporary half of a save (a record's JSON under a temporary name) is not written through.
            let record = mounted.january + "/" + BadInput.recordName
            let edited = try mounted.text(record).replacingOccurrences(of: "an Jürgen", with: "an fsync")
            #expect(Self.writeSyncClose(Array(edited.utf8), to: record + ".tmp").errno == 0)
            #expect(!FileManager.default.fileExists(atPath: backing + "/store/records/2024/01/" + BadInput.recordName + ".tmp"))
            #expect(rename(record + ".tmp", record) == 0)
            #expect(try mounted.text(record).contains("an fsync"))
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("a read-only folder: fsync fails with EROFS, a file written without fsync stays in the mount and is reported, then written once the folder takes it")
    func failedSettlingKeepsTheBytes() throws {
        try BackingFolderFailureTests.withSmallBackingFolder(size: "8m") { folder, backing in
            let mounted = try MountedStore(in: folder, storeName: "backing/store", copyingSample: false)
            _ = try mounted.text(mounted.january + "/" + BadInput.recordName)
            try Self.remount(backing, readOnly: true)
            defer { try? Self.remount(backing, readOnly: false) }

            let synced = Self.writeSyncClose(Array("synced\n".utf8), to: mounted.january + "/synced.txt")
            #expect(synced == (EROFS, "fsync"))
            #expect(try mounted.text(mounted.january + "/synced.txt") == "synced\n", "the bytes fsync could not write stay in the mount")

            let notes = "written without fsync\n"
            #expect(FileManager.default.createFile(atPath: mounted.january + "/notes.txt", contents: Data(notes.utf8)))
            let reported = eventually(within: 10) {
                ((try? mounted.text(mounted.mountPoint + "/.minutafs/errors")) ?? "").contains("records/2024/01/notes.txt")
            }
            #expect(reported, "the failed write of notes.txt is not in .minutafs/errors")
            #expect((mounted.statusCount("failed deferred writes") ?? 0) >= 1)
            #expect(try mounted.text(mounted.january + "/notes.txt") == notes, "the bytes are still shown")
            #expect(try FileManager.default.contentsOfDirectory(atPath: mounted.january).contains("notes.txt"))

            try Self.remount(backing, readOnly: false)
            let written = eventually(within: 15) {
                (try? Fixtures.contents(ofFileAtPath: backing + "/store/records/2024/01/notes.txt")) == Array(notes.utf8)
            }
            #expect(written, "notes.txt was not written once the folder took it")
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("rm of a record whose removal then fails: reported, the record stays removed in the mount, and it is removed from the folder once the folder takes it")
    func failedRemovalIsReported() throws {
        try BackingFolderFailureTests.withSmallBackingFolder(size: "8m") { folder, backing in
            let mounted = try MountedStore(in: folder, storeName: "backing/store", copyingSample: false)
            let record = mounted.january + "/" + BadInput.recordName
            _ = try mounted.text(record)
            let document = backing + "/store/records/2024/01.automerge"
            let before = try Fixtures.contents(ofFileAtPath: document)
            try Self.remount(backing, readOnly: true)
            defer { try? Self.remount(backing, readOnly: false) }
            #expect(unlink(record) == 0)
            let reported = eventually(within: 10) {
                ((try? mounted.text(mounted.mountPoint + "/.minutafs/errors")) ?? "").contains("rm /records/2024/01/" + BadInput.recordName)
            }
            #expect(reported, "the failed removal is not in .minutafs/errors")
            #expect((mounted.statusCount("failed deferred writes") ?? 0) >= 1)
            #expect(try !FileManager.default.contentsOfDirectory(atPath: mounted.january).contains(BadInput.recordName),
                    "the rm returned 0: the record stays removed while the removal waits")
            #expect(try Fixtures.contents(ofFileAtPath: document) == before)
            try Self.remount(backing, readOnly: false)
            let removed = eventually(within: 15) { (try? Fixtures.contents(ofFileAtPath: document)) != before }
            #expect(removed, "the removal was not carried out once the folder took it")
            #expect(eventually(within: 5) { mounted.statusCount("pending writes") == 0 })
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("rm in a month whose document does not load fails with EROFS at once")
    func removalInUnreadableMonthRefusedAtOnce() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let record = mounted.january + "/" + BadInput.recordName
            _ = try mounted.text(record)
            // The sync tool is still downloading January: an empty file where the document was.
            let january = mounted.store + "/records/2024/01.automerge"
            let bytes = try Fixtures.contents(ofFileAtPath: january)
            #expect(truncate(january, 0) == 0)
            let noticed = eventually(within: 10) {
                ((try? mounted.text(mounted.mountPoint + "/.minutafs/errors")) ?? "").contains("records/2024/01.automerge")
            }
            #expect(noticed)
            #expect(unlink(record) == -1 && errno == EROFS)
            #expect(try Fixtures.contents(ofFileAtPath: january).isEmpty, "the unreadable file is left as it is")
            #expect(FileManager.default.createFile(atPath: january, contents: Data(bytes)))
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("the store folder moved away under a running mount: every write fails with EROFS, said in status and errors, and nothing appears at the old path")
    func movedBackingFolder() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let record = mounted.january + "/" + BadInput.recordName
            let shown = try mounted.text(record)
            let moved = folder + "/store.moved"
            #expect(rename(mounted.store, moved) == 0)
            let movedBefore = try folderSnapshot(moved)

            let edited = Array(shown.replacingOccurrences(of: "an Jürgen", with: "an Ana").utf8)
            #expect(BadInputMountTests.save(edited, to: record) == (EROFS, "close"))
            let new = #"{"startTime": "2024-01-20T10:00:00Z", "endTime": "2024-01-20T11:00:00Z"}"#
            let created = try Shell.run("printf '%s' '\(new)' > '\(mounted.january)/new.json'")
            #expect(created.status != 0 && created.output.contains("Read-only file system"), "\(created.output)")
            #expect(Self.writeSyncClose(Array("notes\n".utf8), to: mounted.january + "/notes.txt") == (EROFS, "open"))
            #expect(mkdir(mounted.mountPoint + "/records/2031", 0o755) == -1 && errno == EROFS)

            #expect(!FileManager.default.fileExists(atPath: mounted.store), "something was created at the old path")
            #expect(try folderSnapshot(moved) == movedBefore)
            let status = try mounted.text(mounted.mountPoint + "/.minutafs/status")
            #expect(status.contains("moved to \(moved) while mounted"), "\(status)")
            let errors = try mounted.text(mounted.mountPoint + "/.minutafs/errors")
            #expect(errors.contains("moved, deleted or replaced"), "\(errors)")
            #expect(try mounted.text(record) == shown, "what the mount holds stays readable")
            _ = mounted.unmount()
            #expect(!FileManager.default.fileExists(atPath: mounted.store))
        }
    }

    @Test("the store folder replaced by another folder at the same path: nothing is merged from it or written to it")
    func replacedBackingFolder() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let record = mounted.january + "/" + BadInput.recordName
            let shown = try mounted.text(record)
            // A save the replacement will lack: a mount that took the new folder for its own would write it back there.
            let saved = shown.replacingOccurrences(of: "an Jürgen", with: "an Ana")
            #expect(BadInputMountTests.save(Array(saved.utf8), to: record) == (0, ""))
            #expect(rename(mounted.store, folder + "/store.old") == 0)
            // A restore from a backup puts another copy where the store was.
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: mounted.store)
            try Shell.run("chmod -R u+w '\(mounted.store)'")
            let replacementBefore = try folderSnapshot(mounted.store)
            let edited = Array(saved.replacingOccurrences(of: "an Ana", with: "an Bea").utf8)
            #expect(BadInputMountTests.save(edited, to: record) == (EROFS, "close"))
            // Two synchronization passes run meanwhile (the periodic one, every 5 s).
            let passes = try #require(mounted.statusCount("synchronization passes"))
            #expect(eventually(within: 20) { (mounted.statusCount("synchronization passes") ?? 0) >= passes + 2 })
            #expect(try folderSnapshot(mounted.store) == replacementBefore)
            // The folder the store was opened on still exists (renamed): status names where it went.
            let statusNow = try mounted.text(mounted.mountPoint + "/.minutafs/status")
            #expect(statusNow.contains("moved to \(folder)/store.old while mounted") || statusNow.contains("moved, deleted or replaced"), "\(statusNow)")
            #expect(try mounted.text(record) == saved)
            #expect(mounted.unmount() == 0)
        }
    }
}
