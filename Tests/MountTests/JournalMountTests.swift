import Foundation
import MinutaStore
import Testing
import TestSupport

/// Nothing acknowledged lives only in memory (SPEC 5b): what the mount answered 0 for and defers (a
/// file held while it may be a save's temporary half, an `rm` during its grace period, a write or
/// removal the folder refused) is in the journal in the state folder before the 0, so a `kill -9` or
/// an unmount loses none of it; the next mount carries it out, and `check` names what waits.
@Suite(.serialized)
struct JournalMountTests {
    /// Writes `bytes` to a new file at `path` and closes it; returns the errno of the first call that
    /// failed, 0 when every call succeeded.
    static func writeClose(_ bytes: [UInt8], to path: String) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return errno }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            let failure = written < 0 ? errno : EIO
            close(descriptor)
            return failure
        }
        return close(descriptor) == 0 ? 0 : errno
    }

    /// `fsync` of the folder at `path`; the errno, or 0.
    static func syncFolder(_ path: String) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return errno }
        let synced = fsync(descriptor) == 0 ? 0 : errno
        return close(descriptor) == 0 ? synced : errno
    }

    /// Kills the mount process as the OOM killer would, waits for it, and clears its dead mount point.
    static func killMount(_ mounted: MountedStore) {
        #expect(kill(mounted.process.processIdentifier, SIGKILL) == 0)
        mounted.process.waitUntilExit()
        mounted.unmount()
    }

    static func photo(count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
    }

    @Test("a file closed in the mount, then the mount killed before the file went to the folder: check names it, the next mount writes it")
    func killedBeforeSettling() throws {
        try withTemporaryDirectory { folder in
            let environment = ["XDG_STATE_HOME": folder + "/state"]
            let first = try MountedStore(in: folder, environment: environment)
            let notes = Array("meeting notes\n".utf8)
            #expect(Self.writeClose(notes, to: first.january + "/notes.txt") == 0)
            Self.killMount(first)
            // Killed within its settling delay: the folder does not have it, the journal does.
            #expect(!FileManager.default.fileExists(atPath: first.store + "/records/2024/01/notes.txt"))
            let check = try MinutafsBinary.run(["check", first.store], environment: environment)
            #expect(check.status == 1, "\(check.outputText)")
            #expect(check.outputText.contains("write /records/2024/01/notes.txt (14 bytes)"), "\(check.outputText)")

            let second = try MountedStore(in: folder, copyingSample: false, environment: environment)
            #expect(try Fixtures.contents(ofFileAtPath: second.store + "/records/2024/01/notes.txt") == notes)
            #expect(try second.text(second.january + "/notes.txt") == "meeting notes\n")
            #expect(try second.text(second.mountPoint + "/.minutafs/status").contains("0 acknowledged changes not yet in the folder"))
            #expect(second.unmount() == 0)
            let after = try MinutafsBinary.run(["check", second.store], environment: environment)
            #expect(!after.outputText.contains("notes.txt"), "\(after.outputText)")
        }
    }

    @Test("rm of a record, then the mount killed within the grace period: the next mount removes it")
    func killedDuringRemovalGrace() throws {
        try withTemporaryDirectory { folder in
            let environment = ["XDG_STATE_HOME": folder + "/state"]
            let first = try MountedStore(in: folder, environment: environment)
            let record = first.january + "/" + BadInput.recordName
            _ = try first.text(record)
            #expect(unlink(record) == 0)
            Self.killMount(first)
            let second = try MountedStore(in: folder, copyingSample: false, environment: environment)
            let listing = try FileManager.default.contentsOfDirectory(atPath: second.january)
            #expect(!listing.contains(BadInput.recordName), "the record came back after its rm returned 0")
            #expect(try !Shell.run("grep -rl '\(BadInput.recordID)' '\(second.mountPoint)/records'").output.contains(".json"))
            #expect(second.unmount() == 0)
        }
    }

    @Test("fsync of the folder after rm returns once the record is gone from the documents")
    func folderSyncCarriesOutRemovals() throws {
        try withTemporaryDirectory { folder in
            let environment = ["XDG_STATE_HOME": folder + "/state"]
            let first = try MountedStore(in: folder, environment: environment)
            let record = first.january + "/" + BadInput.recordName
            _ = try first.text(record)
            let document = first.store + "/records/2024/01.automerge"
            let before = try Fixtures.contents(ofFileAtPath: document)
            #expect(unlink(record) == 0)
            #expect(Self.syncFolder(first.january) == 0)
            // Before the grace period is over, the document was rewritten without the record.
            #expect(try Fixtures.contents(ofFileAtPath: document) != before)
            #expect(first.statusCount("pending writes") == 0)
            Self.killMount(first)
            let second = try MountedStore(in: folder, copyingSample: false, environment: environment)
            #expect(try !FileManager.default.contentsOfDirectory(atPath: second.january).contains(BadInput.recordName))
            #expect(second.unmount() == 0)
        }
    }

    @Test("a full folder: the bytes of a file copied in stay in the journal over an unmount, check names them, and the next mount writes them")
    func fullFolderOverUnmount() throws {
        try BackingFolderFailureTests.withSmallBackingFolder(size: "8m") { folder, backing in
            let environment = ["XDG_STATE_HOME": folder + "/state"]
            let mounted = try MountedStore(in: folder, storeName: "backing/store", copyingSample: false, environment: environment)
            _ = try mounted.text(mounted.january + "/" + BadInput.recordName)
            let fill = try Shell.run("dd if=/dev/zero of='\(backing)/FILLER' bs=64k 2>&1")
            #expect(fill.status != 0 && fill.output.contains("No space left"), "\(fill.output)")
            let photo = Self.photo(count: 300_000)
            #expect(Self.writeClose(photo, to: mounted.january + "/holiday.jpg") == 0)
            let reported = eventually(within: 20) {
                ((try? mounted.text(mounted.mountPoint + "/.minutafs/errors")) ?? "").contains("holiday.jpg")
            }
            #expect(reported, "the failed write is not in .minutafs/errors")
            let status = try mounted.text(mounted.mountPoint + "/.minutafs/status")
            #expect(status.contains("waiting in the journal: write /records/2024/01/holiday.jpg (300000 bytes)"), "\(status)")
            #expect(mounted.unmount() == 0)
            let log = try mounted.text(mounted.log)
            #expect(log.contains("stay in the journal"), "\(log)")
            #expect(!FileManager.default.fileExists(atPath: backing + "/store/records/2024/01/holiday.jpg"))
            let check = try MinutafsBinary.run(["check", mounted.store], environment: environment)
            #expect(check.status == 1 && check.outputText.contains("write /records/2024/01/holiday.jpg"), "\(check.outputText)")

            #expect(unlink(backing + "/FILLER") == 0)
            let again = try MountedStore(in: folder, storeName: "backing/store", copyingSample: false, environment: environment)
            #expect(try Fixtures.contents(ofFileAtPath: backing + "/store/records/2024/01/holiday.jpg") == photo)
            #expect(again.unmount() == 0)
            #expect(!(try MinutafsBinary.run(["check", again.store], environment: environment)).outputText.contains("holiday.jpg"))
        }
    }

    @Test("a read-only folder: an rm stays journaled and the record absent, over an unmount; the next mount removes it")
    func refusedRemovalOverUnmount() throws {
        try BackingFolderFailureTests.withSmallBackingFolder(size: "8m") { folder, backing in
            let environment = ["XDG_STATE_HOME": folder + "/state"]
            let mounted = try MountedStore(in: folder, storeName: "backing/store", copyingSample: false, environment: environment)
            let record = mounted.january + "/" + BadInput.recordName
            _ = try mounted.text(record)
            try DeferredWorkMountTests.remount(backing, readOnly: true)
            defer { try? DeferredWorkMountTests.remount(backing, readOnly: false) }
            #expect(unlink(record) == 0)
            #expect(mounted.unmount() == 0)
            let check = try MinutafsBinary.run(["check", mounted.store], environment: environment)
            #expect(check.outputText.contains("rm /records/2024/01/" + BadInput.recordName), "\(check.outputText)")
            try DeferredWorkMountTests.remount(backing, readOnly: false)
            let again = try MountedStore(in: folder, storeName: "backing/store", copyingSample: false, environment: environment)
            #expect(try !FileManager.default.contentsOfDirectory(atPath: again.january).contains(BadInput.recordName))
            #expect(again.unmount() == 0)
        }
    }

    @Test("names of 224 to 255 bytes reach the folder, and a name past 255 bytes is refused at once")
    func longNames() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let photo = Self.photo(count: 50_000)
            for length in [223, 224, 240, 255] {
                let name = "IMG_" + String(repeating: "x", count: length - 8) + ".jpg"
                #expect(name.utf8.count == length)
                #expect(Self.writeClose(photo, to: mounted.january + "/" + name) == 0)
                let written = eventually(within: 15) {
                    (try? Fixtures.contents(ofFileAtPath: mounted.store + "/records/2024/01/" + name)) == photo
                }
                #expect(written, "a \(length)-byte name did not reach the folder")
            }
            let tooLong = "IMG_" + String(repeating: "x", count: 248) + ".jpg"
            #expect(Self.writeClose(photo, to: mounted.january + "/" + tooLong) == ENAMETOOLONG)
            #expect(try BackingFolderFailureTests.temporaryFiles(folder).isEmpty)
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("temporary files this machine's killed minutafs left are merged or removed at the next mount at once; another machine's recent one is left")
    func ownLeftoversAtOnce() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/store"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
            try Shell.run("chmod -R u+w '\(store)'")
            let tag = TemporaryFileName.machineTag
            let otherTag = tag == "00000000" ? "11111111" : "00000000"
            let january = try Fixtures.contents(ofFileAtPath: store + "/records/2024/01.automerge")
            let own = [
                "records/2024/.01.automerge.minutafs-\(tag)-1f2e3d4c.tmp",
                "records/2024/03/.minutafs-\(tag)-ab.tmp",
                "records/2024/03/.notes.txt.minutafs-\(tag)-cd.tmp",
            ]
            let others = "records/2024/03/.notes.txt.minutafs-\(otherTag)-ef.tmp"
            #expect(FileManager.default.createFile(atPath: store + "/" + own[0], contents: Data(january)))
            for name in own.dropFirst() + [others] {
                #expect(FileManager.default.createFile(atPath: store + "/" + name, contents: Data("half a file".utf8)))
            }
            let mounted = try MountedStore(in: folder, copyingSample: false)
            for name in own { #expect(!FileManager.default.fileExists(atPath: store + "/" + name), "\(name) is still there") }
            #expect(FileManager.default.fileExists(atPath: store + "/" + others))
            #expect(mounted.unmount() == 0)

            #expect(FileManager.default.createFile(atPath: store + "/" + own[1], contents: Data("half a file".utf8)))
            let merged = try MinutafsBinary.run(["merge", store])
            #expect(merged.status == 0, "\(merged.outputText)\(merged.errorText)")
            #expect(!FileManager.default.fileExists(atPath: store + "/" + own[1]), "merge leaves this machine's leftover")
        }
    }
}
