import Foundation
import Testing
import TestSupport

/// `.minutafs/status` reports counts that follow what the mount did, and no line that is a
/// constant (it used to print `pending writes: 0` whatever happened; now the count is the mount's).
@Suite(.serialized)
struct StatusFileTests {
    @Test("a save and a synchronization pass show in the status")
    func countsFollowTheMount() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let status = mounted.mountPoint + "/.minutafs/status"
            let passed = mounted.eventually(10) { (mounted.statusCount("synchronization passes") ?? 0) >= 1 }
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

    @Test("pending writes counts an open file with unsaved bytes and an rm not yet carried out (issue 27)")
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
            #expect(mounted.eventually(10) { mounted.statusCount("pending writes") == 0 }, "\((try? mounted.text(status)) ?? "")")
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("right after mounting, status shows the mount point absolute and says documents are loaded on first read (issue 27)")
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
