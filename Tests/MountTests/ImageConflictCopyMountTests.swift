import Foundation
import Testing
import TestSupport

/// Image conflict copies with the same bytes as their original are deleted (SPEC section
/// 5): while mounted, when a mount starts, and by `minutafs merge`. A copy that differs stays.
@Suite(.serialized)
struct ImageConflictCopyMountTests {
    static let image = "records/2024/03/478594E3-17C2-407E-8493-B78CB2137020_0.jpg"
    static let folder = "records/2024/03/"
    static let copies = [
        "478594E3-17C2-407E-8493-B78CB2137020_0 (1).jpg",                                   // Google Drive
        "478594E3-17C2-407E-8493-B78CB2137020_0 (Alice's conflicted copy 2024-03-02).jpg",  // Dropbox
        "478594E3-17C2-407E-8493-B78CB2137020_0.sync-conflict-20240302-101010-ABCDEFG.jpg", // Syncthing
    ]
    static let differing = "478594E3-17C2-407E-8493-B78CB2137020_0 (2).jpg"

    func placeCopies(in store: String) throws {
        let original = store + "/" + Self.image
        for copy in Self.copies { try FileManager.default.copyItem(atPath: original, toPath: store + "/" + Self.folder + copy) }
        var bytes = try Fixtures.contents(ofFileAtPath: original)
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: store + "/" + Self.folder + Self.differing))
    }

    func remaining(in store: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: store + "/" + Self.folder)) ?? []).filter { $0 != "478594E3-17C2-407E-8493-B78CB2137020_0.jpg" }.sorted()
    }

    @Test("identical image copies are deleted while mounted and at mount start; a differing one stays")
    func whileMountedAndAtStart() throws {
        try withTemporaryDirectory { folder in
            var mounted = try MountedStore(in: folder)
            try placeCopies(in: mounted.store)
            let cleaned = mounted.withinTwoPasses { remaining(in: mounted.store) == [Self.differing] }
            #expect(cleaned, "left while mounted: \(remaining(in: mounted.store))")
            #expect(FileManager.default.fileExists(atPath: mounted.store + "/" + Self.image))
            #expect(mounted.unmount() == 0)

            try FileManager.default.removeItem(atPath: mounted.store + "/" + Self.folder + Self.differing)
            try placeCopies(in: mounted.store)
            mounted = try MountedStore(in: folder, copyingSample: false)
            let atStart = mounted.withinTwoPasses { remaining(in: mounted.store) == [Self.differing] }
            #expect(atStart, "left after a mount started: \(remaining(in: mounted.store))")
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("minutafs merge deletes identical image copies and says so")
    func byMergeCommand() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/store"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
            try Shell.run("chmod -R u+w '\(store)'")
            try placeCopies(in: store)
            let merge = try Shell.run("'\(try MinutafsBinary.path())' merge '\(store)'")
            #expect(merge.status == 0, "\(merge.output)")
            #expect(remaining(in: store) == [Self.differing])
            for copy in Self.copies { #expect(merge.output.contains("removed \(Self.folder)\(copy), identical to \(Self.image)"), "\(merge.output)") }
        }
    }

    @Test("an empty image copy beside an empty image (both still being delivered) is not taken for a duplicate")
    func emptyCopiesStay() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/store"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
            try Shell.run("chmod -R u+w '\(store)'")
            try Data().write(to: URL(fileURLWithPath: store + "/" + Self.image))
            let copy = store + "/" + Self.folder + Self.copies[0]
            try Data().write(to: URL(fileURLWithPath: copy))
            let merge = try Shell.run("'\(try MinutafsBinary.path())' merge '\(store)'")
            #expect(!merge.output.contains("identical to"), "\(merge.output)")
            #expect(FileManager.default.fileExists(atPath: copy))
        }
    }
}
