import Foundation
import Testing
import TestSupport

/// `.minutafs/status` reports counts that follow what the mount did, and no line that is a
/// constant (it used to print `pending writes: 0` whatever happened).
@Suite(.serialized)
struct StatusFileTests {
    @Test("a save and a synchronization pass show in the status; no constant pending-writes line")
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
            #expect(!after.contains("pending writes"), "\(after)")
            #expect(mounted.unmount() == 0)
        }
    }
}
