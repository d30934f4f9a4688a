import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// A backing folder that is full or read-only: saves fail with `ENOSPC` or `EROFS` to the program,
/// nothing already saved changes, no temporary file is left, reads keep working, and once the
/// folder is writable again the same save works. The backing folder is a small tmpfs (root only).
@Suite(.serialized, .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
struct BackingFolderFailureTests {
    /// Mounts a tmpfs of `size` on `folder/backing`, copies the sample store to `backing/store`,
    /// runs `body`, and always unmounts the tmpfs (lazily if something still holds it).
    static func withSmallBackingFolder(size: String, _ body: (_ folder: String, _ backing: String) throws -> Void) throws {
        try withTemporaryDirectory { folder in
            let backing = folder + "/backing"
            try FileManager.default.createDirectory(atPath: backing, withIntermediateDirectories: false)
            let mounted = try Shell.run("mount -t tmpfs -o size=\(size),mode=0755 minutafs-test '\(backing)'")
            try #require(mounted.status == 0, "mount -t tmpfs: \(mounted.output)")
            defer { _ = try? Shell.run("umount '\(backing)' 2>/dev/null || umount -l '\(backing)'") }
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: backing + "/store")
            try Shell.run("chmod -R u+w '\(backing)/store'")
            try body(folder, backing)
        }
    }

    /// The store's documents and images, without the test's filler file.
    static func storeFiles(_ backing: String) throws -> [String: [UInt8]] {
        try folderSnapshot(backing + "/store")
    }

    static func temporaryFiles(_ backing: String) throws -> [String] {
        try Shell.run("find '\(backing)/store' -name '*.minutafs-*.tmp'").output.split(separator: "\n").map(String.init)
    }

    @Test("a full disk: saves fail with ENOSPC, nothing saved changes, reads work, and saving works again once there is room")
    func diskFull() throws {
        try Self.withSmallBackingFolder(size: "2m") { folder, backing in
            let mounted = try MountedStore(in: folder, storeName: "backing/store", copyingSample: false)
            let record = mounted.january + "/" + BadInput.recordName
            let shown = try mounted.text(record)
            let edited = Array(shown.replacingOccurrences(of: "an Jürgen", with: "an Ana").utf8)
            let before = try Self.storeFiles(backing)
            // Another device's January, with a comment on another record, to arrive as a conflict copy.
            let device = folder + "/device"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: device)
            try Shell.run("chmod -R u+w '\(device)'")
            let other = try Store(folder: FilePath(device), timeZone: .utc)
            let january = Month(year: 2024, month: 1)!
            let otherFile = try #require(try other.recordFiles(in: january).first { $0.id == BadInput.otherRecordID })
            let otherEdit = String(decoding: otherFile.contents, as: UTF8.self)
                .replacingOccurrences(of: #""images""#, with: #""comment": "from the other device", "images""#)
            _ = try other.writeRecordFile(Array(otherEdit.utf8), named: otherFile.name, in: january)
            let copyBytes = try Fixtures.contents(ofFileAtPath: device + "/records/2024/01.automerge")
            // Fill the disk up, all but a reserve the conflict copy will take later.
            _ = FileManager.default.createFile(atPath: backing + "/reserve", contents: Data(count: 8192))
            let fill = try Shell.run("dd if=/dev/zero of='\(backing)/filler' bs=4k 2>&1")
            #expect(fill.output.contains("No space left on device"), "\(fill.output)")

            #expect(BadInputMountTests.save(edited, to: record) == (ENOSPC, "close"))
            let newRecord = Array(#"{"startTime": "2024-01-20T10:00:00Z", "endTime": "2024-01-20T11:00:00Z"}"#.utf8)
            _ = FileManager.default.createFile(atPath: folder + "/new.json", contents: Data(newRecord))
            #expect(try Shell.run("cp '\(folder)/new.json' '\(mounted.january)/new.json'").output.contains("No space left on device"))
            let image = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            _ = FileManager.default.createFile(atPath: folder + "/image.jpg", contents: Data(image))
            let imageName = BadInput.recordID + "_0.jpg"
            #expect(try Shell.run("cp '\(folder)/image.jpg' '\(mounted.january)/\(imageName)'").output.contains("No space left on device"))
            #expect(try Shell.run("mkdir -p '\(mounted.january)/more' && head -c 100000 /dev/urandom > '\(mounted.january)/more/x.bin'").status != 0)

            // Nothing saved changed; no temporary file was left; the mount reads as before.
            #expect(try Self.storeFiles(backing) == before)
            #expect(try Self.temporaryFiles(backing).isEmpty)
            #expect(try mounted.text(record) == shown)
            #expect(!FileManager.default.fileExists(atPath: mounted.january + "/" + imageName))
            #expect(try Shell.run("jq -s length '\(mounted.mountPoint)'/records/2024/*/*.json").output == "702\n")

            // The sync tool delivers a conflict copy into the last bytes: it cannot be merged (the
            // merged document cannot be written), so it stays as it is.
            try FileManager.default.removeItem(atPath: backing + "/reserve")
            let copy = backing + "/store/records/2024/01 (conflicted copy 2024-01-15).automerge"
            let failedBefore = try #require(mounted.statusCount("failed merges"), "no 'failed merges' line in .minutafs/status")
            try Data(copyBytes).write(to: URL(fileURLWithPath: copy))
            // inotify tells the mount; it tries to merge, and the merge fails for want of room.
            #expect(eventually(within: 15) { (mounted.statusCount("failed merges") ?? 0) > failedBefore },
                    "the mount never tried to merge the copy: \((try? mounted.text(mounted.mountPoint + "/.minutafs/status")) ?? "")")
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/status").contains("No space left"))
            #expect(try Fixtures.contents(ofFileAtPath: copy) == copyBytes)
            #expect(try Fixtures.contents(ofFileAtPath: backing + "/store/records/2024/01.automerge") == before["records/2024/01.automerge"])

            // Room again: the copy is merged (the mount retries every 5 s), the same saves work.
            try FileManager.default.removeItem(atPath: backing + "/filler")
            #expect(eventually(within: 15) { !FileManager.default.fileExists(atPath: copy) })
            let otherShown = mounted.january + "/" + otherFile.name
            #expect(try mounted.text(otherShown).contains("from the other device"))
            #expect(BadInputMountTests.save(edited, to: record).errno == 0)
            #expect(try Shell.run("cp '\(folder)/image.jpg' '\(mounted.january)/\(imageName)'").status == 0)
            #expect(try mounted.text(record).contains("Rückmeldung an Ana"))
            #expect(try mounted.text(record).contains(imageName))
            #expect(mounted.unmount() == 0)
            let reopened = try Store(folder: FilePath(backing + "/store"), timeZone: .utc)
            let file = try #require(try reopened.recordFile(named: BadInput.recordName, in: Month(year: 2024, month: 1)!))
            #expect(String(decoding: file.contents, as: UTF8.self).contains("Rückmeldung an Ana"))
        }
    }

    @Test("a read-only backing folder: saves fail with EROFS, nothing changes, reads work, and saving works again once writable")
    func readOnly() throws {
        try Self.withSmallBackingFolder(size: "8m") { folder, backing in
            let mounted = try MountedStore(in: folder, storeName: "backing/store", copyingSample: false)
            let record = mounted.january + "/" + BadInput.recordName
            let shown = try mounted.text(record)
            let edited = Array(shown.replacingOccurrences(of: "an Jürgen", with: "an Ana").utf8)
            let before = try Self.storeFiles(backing)
            let remount = try Shell.run("mount -o remount,ro '\(backing)'")
            try #require(remount.status == 0, "\(remount.output)")

            #expect(BadInputMountTests.save(edited, to: record) == (EROFS, "close"))
            #expect(BadInputMountTests.save(Array(#"{"tags": []}"#.utf8), to: mounted.mountPoint + "/tags.json") == (EROFS, "close"))
            let mkdir = try Shell.run("mkdir '\(mounted.mountPoint)/records/2030'")
            #expect(mkdir.status != 0 && mkdir.output.contains("Read-only file system"), "\(mkdir.output)")
            _ = FileManager.default.createFile(atPath: folder + "/image.jpg", contents: Data("jpeg".utf8))
            let image = try Shell.run("cp '\(folder)/image.jpg' '\(mounted.january)/\(BadInput.recordID)_0.jpg'")
            #expect(image.status != 0 && image.output.contains("Read-only file system"), "\(image.output)")

            #expect(try Self.storeFiles(backing) == before)
            #expect(try mounted.text(record) == shown)
            #expect(try mounted.text(mounted.mountPoint + "/tags.json").contains("Écriture"))
            #expect(try Shell.run("jq -s length '\(mounted.mountPoint)'/records/2024/*/*.json").output == "702\n")

            #expect(try Shell.run("mount -o remount,rw '\(backing)'").status == 0)
            #expect(BadInputMountTests.save(edited, to: record).errno == 0)
            #expect(try mounted.text(record).contains("Rückmeldung an Ana"))
            #expect(try Self.temporaryFiles(backing).isEmpty)
            #expect(mounted.unmount() == 0)
        }
    }
}
