import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// `-o ro`: the kernel opens files itself (no-open mode: OPEN and FLUSH answered with
/// `ENOSYS`, reads without a handle), so indexers and backups read at plain-file speed. Everything
/// reads as on a read-write mount, what the sync tool delivers still shows, and writes are refused.
@Suite(.serialized)
struct ReadOnlyMountTests {
    /// `sha256sum` of every file under `mountPoint` but `.minutafs/` and `reports/` (a running timer's
    /// report counts up to now, so two reads differ), by path, read with `cat`.
    static func contents(_ mountPoint: String) throws -> String {
        let listed = try Shell.run(
            "cd '\(mountPoint)' && find . \\( -path ./.minutafs -o -path ./reports \\) -prune -o -type f -print | LC_ALL=C sort | xargs -d '\\n' sha256sum")
        try #require(listed.status == 0, "\(listed.output)")
        return listed.output
    }

    @Test("-o ro reads every file as a read-write mount does, shows a replaced document by the next passes, refuses writes with EROFS")
    func readOnlyMount() throws {
        try withTemporaryDirectory { folder in
            let writable = try MountedStore(in: folder)
            let expected = try Self.contents(writable.mountPoint)
            #expect(writable.unmount() == 0)
            #expect(expected.split(separator: "\n").count > 100, "\(expected.split(separator: "\n").count) files")

            let mounted = try MountedStore(in: folder, copyingSample: false, options: ["ro"])
            #expect(try Self.contents(mounted.mountPoint) == expected)
            #expect(try Self.contents(mounted.mountPoint) == expected)  // warm: from the kernel's pages
            let status = try mounted.text(mounted.mountPoint + "/.minutafs/status")
            #expect(status.contains("deleted documents: none"), "\(status)")

            // Another device changes a January record's comment; its document replaces the store's.
            let device = folder + "/device"
            try FileManager.default.copyItem(atPath: mounted.store, toPath: device)
            let other = try Store(folder: FilePath(device), timeZone: .utc)
            let january = try #require(Month(year: 2024, month: 1))
            let record = try #require(try other.recordFiles(in: january).first { String(decoding: $0.contents, as: UTF8.self).contains(#""comment": ""#) })
            let edited = String(decoding: record.contents, as: UTF8.self)
                .replacingOccurrences(of: #""comment": ""#, with: #""comment": "changed on another device: "#)
            _ = try other.writeRecordFile(Array(edited.utf8), named: record.name, in: january)
            let delivery = folder + "/delivery.automerge"
            try FileManager.default.copyItem(atPath: device + "/records/2024/01.automerge", toPath: delivery)
            #expect(rename(delivery, mounted.store + "/records/2024/01.automerge") == 0)
            let path = mounted.january + "/" + record.name
            let shown = mounted.withinTwoPasses { (try? mounted.text(path))?.contains("changed on another device: ") ?? false }
            #expect(shown, "\((try? mounted.text(path)) ?? "unreadable")")

            // fsync of a file opened for reading has nothing to do and succeeds.
            let descriptor = open(path, O_RDONLY)
            #expect(descriptor >= 0)
            #expect(fsync(descriptor) == 0, "fsync: \(String(cString: strerror(errno)))")
            #expect(close(descriptor) == 0)

            // Refused by the kernel: the mount is read-only.
            let write = MountClient.write(Array("{}".utf8), to: path)
            #expect(write == MountClient.Outcome(errno: EROFS, call: "open"), "\(write)")
            #expect(MountClient.write(Array("{}".utf8), to: mounted.january + "/new.json").errno == EROFS)
            #expect(MountClient.remove(path).errno == EROFS)
            #expect(mounted.unmount() == 0)
        }
    }
}
