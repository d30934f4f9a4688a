import Foundation
import Testing
import TestSupport

/// `.minutafs/status` reports counts that follow what the mount did, and no line that is a
/// constant: each count moves when, and only when, the work it counts was done.
@Suite(.serialized)
struct StatusFileTests {
    @Test("a save and a synchronization pass show in the status")
    func countsFollowTheMount() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let status = mounted.mountPoint + "/.minutafs/status"
            let passed = eventually(within: 10) { (mounted.statusCount("synchronization passes") ?? 0) >= 1 }
            #expect(passed, "\((try? mounted.text(status)) ?? "")")
            #expect(mounted.statusCount("documents saved") == 0)
            #expect(mounted.statusCount("failed merges") == 0)
            let record = mounted.january + "/" + BadInput.recordName
            let edited = try mounted.text(record).replacingOccurrences(of: "an Jürgen", with: "an Ana")
            #expect(BadInputMountTests.save(Array(edited.utf8), to: record).errno == 0)
            let after = try mounted.text(status)
            #expect(mounted.statusCount("documents saved") == 1, "\(after)")
            #expect(mounted.statusCount("pending writes") == 0, "\(after)")
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("the folder watcher merges a conflict copy as it arrives, long before the next periodic pass")
    func watcherPass() throws {
        try withTemporaryDirectory { folder in
            // A periodic pass an hour away: only the watcher can merge the copy within the test's deadline.
            let mounted = try MountedStore(in: folder, environment: ["MINUTAFS_SYNC_PERIOD": "3600"])
            let status = mounted.mountPoint + "/.minutafs/status"
            let firstPass = eventually(within: 10) { mounted.statusCount("synchronization passes") == 1 }
            #expect(firstPass, "\((try? mounted.text(status)) ?? "")")
            #expect(mounted.statusCount("conflict copies merged") == 0)
            let primary = mounted.store + "/records/2024/01.automerge"
            let copy = mounted.store + "/records/2024/01 (conflicted copy 2024-01-15).automerge"
            #expect(copyfile(primary, to: copy))
            // The sync tool's temporary file and its rename may each start a pass: wait for the one that merges.
            let merged = eventually(within: 10) { () -> Bool in
                let copyGone = !FileManager.default.fileExists(atPath: copy)
                let passes = mounted.statusCount("synchronization passes") ?? 0
                return copyGone && passes >= 2 && mounted.statusCount("conflict copies merged") == 1
            }
            #expect(merged, "\((try? mounted.text(status)) ?? "")")
            #expect(mounted.statusCount("failed merges") == 0)
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("the periodic pass runs on its own, with nothing in the folder changing")
    func periodicPass() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder, environment: ["MINUTAFS_SYNC_PERIOD": "0.2"])
            let status = mounted.mountPoint + "/.minutafs/status"
            // Nothing writes to the store: the watcher has no event, so passes past the first are periodic.
            let passed = eventually(within: 10) { (mounted.statusCount("synchronization passes") ?? 0) >= 5 }
            #expect(passed, "\((try? mounted.text(status)) ?? "")")
            #expect(mounted.statusCount("documents saved") == 0)
            #expect(mounted.unmount() == 0)
        }
    }

    /// Copies `source` to `destination` through a temporary name, as a sync tool delivers a file.
    private func copyfile(_ source: String, to destination: String) -> Bool {
        guard let bytes = try? Fixtures.contents(ofFileAtPath: source) else { return false }
        let temporary = (destination as NSString).deletingLastPathComponent + "/.syncthing."
            + (destination as NSString).lastPathComponent + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else { return false }
        return rename(temporary, destination) == 0
    }

    @Test("pending writes counts an open file with unsaved bytes and an rm not yet carried out")
    func pendingWrites() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let status = mounted.mountPoint + "/.minutafs/status"
            #expect(mounted.statusCount("pending writes") == 0, "\((try? mounted.text(status)) ?? "")")
            // Written, not yet closed: the bytes are the mount's until the close.
            let record = mounted.january + "/" + BadInput.recordName
            let edited = try mounted.text(record).replacingOccurrences(of: "an Jürgen", with: "an Ana")
            let descriptor = open(record, O_WRONLY | O_TRUNC)
            try #require(descriptor >= 0)
            let written = edited.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count - 1) }
            #expect(written == edited.utf8.count)
            #expect(mounted.statusCount("pending writes") == 1, "\((try? mounted.text(status)) ?? "")")
            #expect(close(descriptor) == 0)
            #expect(mounted.statusCount("pending writes") == 0, "\((try? mounted.text(status)) ?? "")")
            // An rm is carried out two seconds later.
            #expect(unlink(mounted.january + "/2024-01-03_034234.json") == 0)
            #expect(mounted.statusCount("pending writes") == 1, "\((try? mounted.text(status)) ?? "")")
            #expect(eventually(within: 10) { mounted.statusCount("pending writes") == 0 }, "\((try? mounted.text(status)) ?? "")")
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("right after mounting, status shows the mount point absolute and says documents are loaded on first read")
    func freshMount() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder, options: ["ro"])
            let status = try mounted.text(mounted.mountPoint + "/.minutafs/status")
            #expect(status.contains("\nmount: \(mounted.mountPoint) (ro)\n"), "\(status)")
            #expect(status.contains("\ndocuments loaded: 0 (each is loaded on first read)\n"), "\(status)")
            // -f: the log is the mount's standard error.
            #expect(status.contains("\nlog: standard error of the mount process (mounted with -f)\n"), "\(status)")
            #expect(mounted.unmount() == 0)
        }
    }
}
