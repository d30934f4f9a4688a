import Foundation
import Glibc
import Testing
import TestSupport

/// A store folder moved away under a running mount (SPEC 5b): nothing is written to it any more (EROFS),
/// and the mount keeps showing what it showed, read-only, even where the kernel asks it again: the
/// listings and documents are read from the folder the store was opened on, wherever it went. Before,
/// they were read at the old path, where nothing is: `tags.json` read `{"tags": []}` and `records/` was
/// empty.
@Suite(.serialized)
struct MovedStoreMountTests {
    /// Every folder and file of the mount below `records/`, with each file's bytes, and `tags.json`.
    static func shown(_ mounted: MountedStore) throws -> [String: String] {
        var shown = ["tags.json": try mounted.text(mounted.mountPoint + "/tags.json")]
        let listing = try Shell.run("cd '\(mounted.mountPoint)' && find records | sort")
        try #require(listing.status == 0, "\(listing.output)")
        shown["listing"] = listing.output
        for name in try FileManager.default.contentsOfDirectory(atPath: mounted.january).sorted() where name.hasSuffix(".json") {
            shown[name] = try mounted.text(mounted.january + "/" + name)
        }
        return shown
    }

    @Test("after mv of the store, tags.json, the records listing and the records show what they showed; status names the move; writes fail with EROFS")
    func movedStoreKeepsShowing() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let before = try Self.shown(mounted)
            try #require(before["listing"]?.contains("records/2024/01/" + BadInput.recordName) == true, "\(before["listing"] ?? "")")
            let moved = folder + "/store.moved"
            try #require(rename(mounted.store, moved) == 0)
            // The kernel forgets the names and listings it cached, as it does under memory pressure or
            // after the cache timeout: what follows is asked of the mount.
            let dropped = try Shell.run("sync && echo 2 > /proc/sys/vm/drop_caches")
            try #require(dropped.status == 0, "\(dropped.output)")

            let after = try Self.shown(mounted)
            for (name, text) in before.sorted(by: { $0.key < $1.key }) {
                #expect(after[name] == text, "\(name) shows something else after the move: \(after[name]?.prefix(300) ?? "nothing")")
            }
            #expect(after.count == before.count)
            let status = try mounted.text(mounted.mountPoint + "/.minutafs/status")
            #expect(status.contains("store: \(mounted.store) (moved to \(moved) while mounted"), "\(status)")
            let record = mounted.january + "/" + BadInput.recordName
            let edited = Array(try mounted.text(record).replacingOccurrences(of: "an Jürgen", with: "an Ana").utf8)
            #expect(BadInputMountTests.save(edited, to: record) == (EROFS, "close"))
            #expect(BadInputMountTests.save(Array(#"{"tags": []}"#.utf8), to: mounted.mountPoint + "/tags.json") == (EROFS, "close"))
            #expect(try mounted.text(record) == before[BadInput.recordName], "a refused save shows the record as it was")
            #expect(!FileManager.default.fileExists(atPath: mounted.store), "something was created at the old path")
            _ = mounted.unmount()
        }
    }
}
