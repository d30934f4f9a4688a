import Foundation
import Testing
import TestSupport

/// SPEC 5b, "No open in the store ever blocks", through a real mount: a FIFO, a Unix socket or a
/// device already at a document's name (or an image's) when the mount starts is a file it cannot
/// read (SPEC 5a), named in status and errors; listing its month, reading tags.json and `cat` of an
/// image return, and every other month works.
@Suite(.serialized)
struct NonRegularDocumentMountTests {
    @Test("a FIFO, socket or device at a document's name before the mount starts is unreadable, and nothing waits on it",
          arguments: SpecialFile.allCases)
    func presentAtStart(tags: SpecialFile) throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/store"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
            #expect(try Shell.run("chmod -R u+w '\(store)'").status == 0)
            let replaced = ["tags.automerge", "records/2024/01.automerge", "records/2024/02.automerge", "records/2024/03.automerge"]
            try SpecialFile.fifo.replace(store + "/records/2024/01.automerge")
            try SpecialFile.socket.replace(store + "/records/2024/02.automerge")
            try SpecialFile.device.replace(store + "/records/2024/03.automerge")
            try tags.replace(store + "/tags.automerge")
            // An image of April's that is a FIFO: `cat` of it through the mount must return too.
            let aprilImages = try FileManager.default.contentsOfDirectory(atPath: store + "/records/2024/04")
            let image = try #require(aprilImages.first { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }, "no image in April: \(aprilImages)")
            try SpecialFile.fifo.replace(store + "/records/2024/04/" + image)
            // The view cache (read before the document at the first listing) is in play: the mount's own.
            let environment = ["XDG_CACHE_HOME": folder + "/cache", "XDG_STATE_HOME": folder + "/state"]
            let mounted = try MountedStore(in: folder, copyingSample: false, environment: environment)
            let release = { for name in replaced + ["records/2024/04/" + image] { SpecialFile.releaseFIFO(at: store + "/" + name) } }

            for month in ["01", "02", "03"] {
                let listing = try runBounded(["ls", mounted.mountPoint + "/records/2024/" + month], release: release)
                #expect(!listing.overran, "ls of month \(month) hung: \(listing.output)")
            }
            let tagsRead = try runBounded(["cat", mounted.mountPoint + "/tags.json"], release: release)
            #expect(!tagsRead.overran, "cat tags.json hung: \(tagsRead.output)")
            let imageRead = try runBounded(["cat", mounted.mountPoint + "/records/2024/04/" + image], release: release)
            #expect(!imageRead.overran, "cat of a FIFO image hung: \(imageRead.output)")
            #expect(imageRead.status != 0, "a FIFO read as an image: \(imageRead.output)")

            #expect(mounted.withinTwoPasses { mounted.statusCount("unreadable documents") == 4 },
                    "status: \((try? mounted.text(mounted.mountPoint + "/.minutafs/status")) ?? "")")
            let errors = try mounted.text(mounted.mountPoint + "/.minutafs/errors")
            for name in replaced {
                #expect(errors.contains("\(name): cannot be loaded: it is not a regular file"), "\(name) not in errors: \(errors)")
            }
            // Every other month works.
            let april = try runBounded(["ls", mounted.mountPoint + "/records/2024/04"], release: release)
            #expect(april.status == 0 && april.output.contains(".json"), "\(april.output)")
            #expect(mounted.unmount() == 0)
            // Nothing was replaced.
            for name in replaced + ["records/2024/04/" + image] {
                var info = stat()
                #expect(lstat(store + "/" + name, &info) == 0 && info.st_mode & S_IFMT != S_IFREG, "\(name) was replaced")
            }
        }
    }
}
