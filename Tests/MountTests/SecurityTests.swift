import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// Keeping other users out, and the store in: without `allow_other` no other user enters the mount;
/// with it the kernel checks permissions (others read, only the owner writes); symbolic links in
/// the backing folder are never followed; names that come from documents never reach outside the
/// store or the export folder.
@Suite(.serialized)
struct SecurityTests {
    /// Runs a shell script as the user `nobody` (uid 65534).
    static func asNobody(_ script: String, in folder: String) throws -> Shell.Result {
        let file = folder + "/nobody-\(UUID().uuidString).sh"
        try Data(script.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try Shell.run("setpriv --reuid=65534 --regid=65534 --clear-groups -- /bin/sh '\(file)' 2>&1")
    }

    /// A temporary folder that `nobody` may pass through (so only the mount decides).
    static func withOpenFolder(_ body: (String) throws -> Void) throws {
        try withTemporaryDirectory { folder in
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
            try body(folder)
        }
    }

    @Test("without allow_other, another user cannot enter the mount or read a file in it",
          .enabled(if: getuid() == 0, "running a command as nobody needs root"))
    func otherUsersKeptOut() throws {
        try Self.withOpenFolder { folder in
            let mounted = try MountedStore(in: folder)
            let listing = try Self.asNobody("ls '\(mounted.mountPoint)'", in: folder)
            #expect(listing.status != 0 && listing.output.contains("Permission denied"), "\(listing.output)")
            let reading = try Self.asNobody("cat '\(mounted.mountPoint)/tags.json'", in: folder)
            #expect(reading.status != 0 && reading.output.contains("Permission denied"), "\(reading.output)")
            let stat = try Self.asNobody("stat '\(mounted.january)/\(BadInput.recordName)'", in: folder)
            #expect(stat.status != 0 && stat.output.contains("Permission denied"), "\(stat.output)")
            // The owner still can.
            #expect(try Shell.run("cat '\(mounted.mountPoint)/tags.json'").status == 0)
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("with allow_other, other users read but the kernel refuses their writes (default_permissions)",
          .enabled(if: getuid() == 0, "running a command as nobody needs root"))
    func allowOtherChecksPermissions() throws {
        try Self.withOpenFolder { folder in
            let mounted = try MountedStore(in: folder, options: ["allow_other"])
            let before = try folderSnapshot(mounted.store)
            let record = mounted.january + "/" + BadInput.recordName
            let reading = try Self.asNobody("cat '\(record)'", in: folder)
            #expect(reading.status == 0 && reading.output.contains(BadInput.recordID), "\(reading.output)")
            for command in [
                "echo '{}' > '\(record)'",
                "echo x >> '\(record)'",
                "touch '\(mounted.january)/new.json'",
                "rm -f '\(record)'",
                "mkdir '\(mounted.mountPoint)/records/2031'",
                "mv '\(record)' '\(mounted.january)/moved.json'",
                "echo '{\"tags\": []}' > '\(mounted.mountPoint)/tags.json'",
            ] {
                let result = try Self.asNobody(command, in: folder)
                #expect(result.status != 0 && result.output.contains("Permission denied"), "\(command): \(result.output)")
            }
            #expect(try Shell.run("ls -ln '\(record)'").output.hasPrefix("-rw-r--r-- 1 0 0 "))
            #expect(try folderSnapshot(mounted.store) == before)
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/errors").isEmpty)
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("symbolic links in the backing folder are not shown, not readable and never written through")
    func symbolicLinksNotFollowed() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/store"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
            try Shell.run("chmod -R u+w '\(store)'")
            let victim = folder + "/victim.txt"
            try Data("outside the store\n".utf8).write(to: URL(fileURLWithPath: victim))
            let victimDocument = folder + "/victim.automerge"
            try FileManager.default.copyItem(atPath: store + "/records/2024/02.automerge", toPath: victimDocument)
            let links = [
                "records/2024/01/evil.jpg": "/etc/passwd",
                "records/2024/01/\(BadInput.recordID)_9.jpg": "/etc/passwd",
                "records/2024/01/etc": "/etc",
                "records/2024/01/victim.jpg": victim,
                "records/2025": "/etc",
                "passwd.txt": "/etc/passwd",
            ]
            try FileManager.default.createDirectory(atPath: store + "/records/2024/01", withIntermediateDirectories: true)
            for (link, target) in links {
                try FileManager.default.createSymbolicLink(atPath: store + "/" + link, withDestinationPath: target)
            }
            // A month document that is a link to a document outside the store.
            try FileManager.default.removeItem(atPath: store + "/records/2024/02.automerge")
            try FileManager.default.createSymbolicLink(atPath: store + "/records/2024/02.automerge", withDestinationPath: victimDocument)
            let victimDocumentBytes = try Fixtures.contents(ofFileAtPath: victimDocument)

            let mounted = try MountedStore(in: folder, copyingSample: false)
            let listed = Set(try Shell.run("ls -a '\(mounted.mountPoint)' '\(mounted.mountPoint)/records' '\(mounted.january)'").output.split(separator: "\n"))
            for (link, _) in links {
                #expect(!listed.contains(link.split(separator: "/").last ?? ""), "\(link) is listed")
                let read = try Shell.run("cat '\(mounted.mountPoint)/\(link)'")
                #expect(read.status != 0 && read.output.contains("No such file or directory"), "\(link): \(read.output)")
            }
            #expect(try Shell.run("cat '\(mounted.mountPoint)/records/2024/01/etc/passwd'").status != 0)
            // (Reading February fails with EIO: its document is a link; only what grep finds counts here.)
            #expect(try Shell.run("grep -rl root: '\(mounted.mountPoint)' 2>/dev/null").output.isEmpty)
            // Writing where a link is replaces the link with a file; the target is untouched.
            #expect(try Shell.run("printf 'new image' > '\(mounted.january)/victim.jpg'").status == 0)
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "outside the store\n")
            // (victim.jpg is no app image name: the mount holds it in memory and writes it a few seconds
            // after its last close, in case it was the temporary half of a write-then-rename save.)
            let replaced = eventually(within: 8) {
                FileManager.default.fileExists(atPath: store + "/records/2024/01/victim.jpg")
                    && (try? FileManager.default.destinationOfSymbolicLink(atPath: store + "/records/2024/01/victim.jpg")) == nil
            }
            #expect(replaced, "the link was not replaced by a file")
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "outside the store\n")
            // February's linked document is not read, and is unreadable in the sense of SPEC 5a: a new
            // February record is refused (EROFS) with the reason in .minutafs/errors, and the link stays.
            #expect(try FileManager.default.contentsOfDirectory(atPath: mounted.mountPoint + "/records/2024/02").filter { $0.hasSuffix(".json") }.isEmpty)
            let new = #"{"startTime": "2024-02-20T10:00:00Z", "endTime": "2024-02-20T11:00:00Z", "comment": "new"}"#
            let created = try Shell.run("printf '%s' '\(new)' > '\(mounted.mountPoint)/records/2024/02/new.json'")
            #expect(created.status != 0 && created.output.contains("Read-only file system"), "\(created.output)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: store + "/records/2024/02.automerge") == victimDocument)
            #expect(try Fixtures.contents(ofFileAtPath: victimDocument) == victimDocumentBytes)
            #expect(try FileManager.default.contentsOfDirectory(atPath: store + "/records/2024").filter { $0.hasPrefix("02") } == ["02.automerge"])
            let errors = try mounted.text(mounted.mountPoint + "/.minutafs/errors")
            #expect(errors.contains("records/2024/02.automerge") && errors.contains("symbolic link"), "\(errors)")
            #expect(mounted.unmount() == 0)
        }
    }

    /// Another device (or any program) can put any key and any image name into a document. Names
    /// shown by the mount and paths used by rm, moves and export must stay inside their folder.
    @Test("record keys and image names from a document never address a path outside the store")
    func hostileNamesInDocuments() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/store"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
            try Shell.run("chmod -R u+w '\(store)'")
            let outside = folder + "/outside.jpg"
            try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: outside))
            // March gains records written by "another device".
            let marchPath = store + "/records/2024/03.automerge"
            var march = try Document.load(Fixtures.contents(ofFileAtPath: marchPath))
            let hostileImages = ["../../../../outside.jpg", outside, "../03/../../../outside.jpg", "..", "a\nb.jpg"]
            let escaping = try march.putObject(.map, forKey: "../../../../escape")
            try march.put(.timestamp(1_710_000_000_000), forKey: "endTime", in: escaping)
            let images = try march.putObject(.list, forKey: "images", in: escaping)
            for (index, name) in hostileImages.enumerated() { try march.insert(.string(name), at: index, in: images) }
            let slashed = try march.putObject(.map, forKey: "a/b\nc")
            try march.put(.timestamp(1_710_000_000_000), forKey: "startTime", in: slashed)
            let sameSecond = try march.putObject(.map, forKey: "x/y/z/w/v")
            try march.put(.timestamp(1_710_000_000_000), forKey: "startTime", in: sameSecond)
            let long = try march.putObject(.map, forKey: String(repeating: "../", count: 400) + "long")
            try march.put(.string("a long key"), forKey: "comment", in: long)
            try Data(march.save()).write(to: URL(fileURLWithPath: marchPath))

            let mounted = try MountedStore(in: folder, copyingSample: false)
            let marchFolder = mounted.mountPoint + "/records/2024/03"
            let names = try FileManager.default.contentsOfDirectory(atPath: marchFolder)
            #expect(names.contains("..%2F..%2F..%2F..%2Fescape.json"), "\(names)")
            #expect(names.contains("2024-03-09_160000_a%2Fb%0Ac.json"), "\(names)")
            #expect(names.contains("2024-03-09_160000_x%2Fy%2Fz%2Fw%2F.json"), "\(names)")
            #expect(names.allSatisfy { !$0.contains("/") && !$0.contains("\n") && $0.utf8.count <= 255 })
            // Every record reads, and shows its real id.
            for name in names where name.hasSuffix(".json") {
                #expect(try Shell.run("jq -e .id '\(marchFolder)/\(name)'").status == 0, "\(name)")
            }
            #expect(try mounted.text(marchFolder + "/..%2F..%2F..%2F..%2Fescape.json").contains(#""id": "../../../../escape""#))
            // Export writes every record inside the export folder.
            let export = try MinutafsBinary.run(["export", store, folder + "/export"])
            #expect(export.status == 0, "\(export.errorText)")
            #expect(FileManager.default.fileExists(atPath: folder + "/export/records/2024/03/..%2F..%2F..%2F..%2Fescape.json"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["export", "mnt", "mount.log", "outside.jpg", "store"])
            // Moving the record to April and deleting it leave the file its image names point at alone.
            let record = marchFolder + "/..%2F..%2F..%2F..%2Fescape.json"
            let moved = try mounted.text(record).replacingOccurrences(of: #""endTime""#, with: #""startTime": "2024-04-10T10:00:00Z", "endTime""#)
            #expect(BadInputMountTests.save(Array(moved.utf8), to: record).errno == EINVAL, "hostile image names are refused on save")
            #expect(try Shell.run("rm '\(record)'").status == 0)
            #expect(eventually(within: 10) { (try? Store(folder: FilePath(store)).recordFiles(in: Month(year: 2024, month: 3)!).contains { $0.id == "../../../../escape" }) == false })
            #expect(try String(contentsOfFile: outside, encoding: .utf8) == "keep me\n")
            #expect(mounted.unmount() == 0)
        }
    }
}
