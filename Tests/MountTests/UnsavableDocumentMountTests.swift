import AutomergeKit
import Foundation
import Testing
import TestSupport

/// SPEC 5a through a real mount: changes whose times lie at both ends of `Int64` (a broken device's)
/// load from change chunks, but a document chunk cannot hold them, so a month that took them in could
/// never be saved whole (the reference's save of it does not load). The mount does not take them in:
/// a conflict copy bringing them stays where it is, unmerged, and a version of the document bringing
/// them is left as it is; both are named in `.minutafs/errors`, and the month's file keeps its bytes.
@Suite(.serialized)
struct UnsavableDocumentMountTests {
    static func errors(_ mounted: MountedStore) -> String { (try? mounted.text(mounted.mountPoint + "/.minutafs/errors")) ?? "" }

    /// Writes `bytes` at `path` as a sync tool delivers a file: a temporary name, then a rename.
    static func deliver(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path + ".sync-tmp"))
        #expect(rename(path + ".sync-tmp", path) == 0)
    }

    @Test("a conflict copy carrying such changes beside a month is left as it is and named; the month keeps its file and stays writable")
    func conflictCopyLeft() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder, environment: ["XDG_STATE_HOME": folder + "/state", "XDG_CACHE_HOME": folder + "/cache"])
            let january = mounted.store + "/records/2024/01.automerge"
            let listing = try Shell.run("ls '\(mounted.january)'")
            #expect(listing.status == 0, "\(listing.output)")
            let before = try Fixtures.contents(ofFileAtPath: january)
            let copyName = "01 (Alice's conflicted copy 2024-01-15).automerge"
            let copy = mounted.store + "/records/2024/" + copyName
            let copyBytes = try Fixtures.bytes("int64-ends.changes.automerge", in: "edges")
            try Self.deliver(copyBytes, to: copy)

            #expect(mounted.withinTwoPasses { Self.errors(mounted).contains(copyName) },
                    "errors: \(Self.errors(mounted))")
            let errors = Self.errors(mounted)
            #expect(errors.contains("cannot be saved") && errors.contains("change "), "\(errors)")
            #expect(try Fixtures.contents(ofFileAtPath: copy) == copyBytes, "the copy changed")
            #expect(try Fixtures.contents(ofFileAtPath: january) == before, "January was rewritten with the copy's changes")
            #expect(!FileManager.default.fileExists(atPath: mounted.store + "/.minutafs-quarantine"))

            // The month is still written, as a file that loads.
            let names = try FileManager.default.contentsOfDirectory(atPath: mounted.january).filter { $0.hasSuffix(".json") }.sorted()
            let record = mounted.january + "/" + (try #require(names.first))
            let edit = try Shell.run("python3 -c 'import json,sys; p=sys.argv[1]; r=json.load(open(p)); r[\"comment\"]=\"edited beside the copy\"; open(p,\"w\").write(json.dumps(r))' '\(record)'")
            #expect(edit.status == 0, "\(edit.output)")
            let written = try Fixtures.contents(ofFileAtPath: january)
            #expect(written != before)
            let loaded = try Document.load(written)
            try loaded.requireSavable()
            #expect(FileManager.default.fileExists(atPath: copy), "the copy was removed")
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("a version of a month bringing such a change is left exactly as it is, named, and not written over")
    func deliveredVersionLeft() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder, environment: ["XDG_STATE_HOME": folder + "/state", "XDG_CACHE_HOME": folder + "/cache"])
            let february = mounted.store + "/records/2024/02.automerge"
            let listing = try Shell.run("ls '\(mounted.mountPoint)/records/2024/02'")
            #expect(listing.status == 0, "\(listing.output)")
            // Another device's version: February as it was, and one change of a broken clock's appended;
            // the mount holds an edit this version lacks, so it would write back what it merged.
            let original = try Fixtures.contents(ofFileAtPath: february)
            let names = try FileManager.default.contentsOfDirectory(atPath: mounted.mountPoint + "/records/2024/02").filter { $0.hasSuffix(".json") }.sorted()
            let record = mounted.mountPoint + "/records/2024/02/" + (try #require(names.first))
            let edit = try Shell.run("python3 -c 'import json,sys; p=sys.argv[1]; r=json.load(open(p)); r[\"comment\"]=\"edited by the mount\"; open(p,\"w\").write(json.dumps(r))' '\(record)'")
            #expect(edit.status == 0, "\(edit.output)")
            #expect(try Fixtures.contents(ofFileAtPath: february) != original, "the mount's edit was not saved")
            var device = try Document.load(original).fork(actor: ActorID(bytes: Array(repeating: 0x5a, count: 16)))
            let count = device.changeCount
            try device.put(.string("from a broken clock"), forKey: "brokenClock")
            _ = device.commit(time: Int64.min)
            let delivered = original + device.changeChunks(afterFirst: count)
            #expect(throws: AutomergeError.self) { try Document.load(delivered).requireSavable() }
            try Self.deliver(delivered, to: february)

            #expect(mounted.withinTwoPasses { Self.errors(mounted).contains("records/2024/02.automerge") },
                    "errors: \(Self.errors(mounted))")
            let errors = Self.errors(mounted)
            #expect(errors.contains("cannot be saved"), "\(errors)")
            #expect(try Fixtures.contents(ofFileAtPath: february) == delivered, "the delivered version was written over")
            // The mount's edit, which the delivered version lacks, is kept in a conflict copy that loads.
            func copies() -> [String] {
                ((try? FileManager.default.contentsOfDirectory(atPath: mounted.store + "/records/2024")) ?? []).filter { $0.hasPrefix("02 (minutafs conflicted copy") }
            }
            _ = mounted.withinTwoPasses { !copies().isEmpty }
            let copy = try #require(copies().first, "no conflict copy of the mount's edit: \(Self.errors(mounted))")
            let held = try Document.load(try Fixtures.contents(ofFileAtPath: mounted.store + "/records/2024/" + copy))
            try held.requireSavable()
            #expect(mounted.unmount() == 0)
            #expect(try Fixtures.contents(ofFileAtPath: february) == delivered, "the delivered version was written over at unmount")
        }
    }
}
