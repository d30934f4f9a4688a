import Foundation
import Testing
import TestSupport

/// However a user spells a store or a document in it (a symbolic link to the store, a relative path,
/// `..`, a link at the document's name, a file not there yet), a command means the real folder: a link
/// to the store is a store, and a writing command's output in a mounted store is refused by the
/// store's writer lock (SPEC 5a: one writer per store per machine).
@Suite(.serialized)
struct StorePathSpellingMountTests {
    @Test("a symbolic link to the store is a store: mount, check, merge, report and now go through it")
    func linkToStore() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/store"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
            #expect(try Shell.run("chmod -R u+w '\(store)'").status == 0)
            try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "store")
            let environment = ["XDG_CACHE_HOME": folder + "/cache", "XDG_STATE_HOME": folder + "/state", "HOME": folder]
            for command in [["check"], ["merge"], ["report"], ["now"]] {
                let real = try MinutafsBinary.run(command + [store], environment: environment)
                let linked = try MinutafsBinary.run(command + [folder + "/link"], environment: environment)
                // `now` exits 1 when no timer runs: through the link it must answer as for the folder itself.
                #expect(linked.status == real.status, "\(command) through a link: \(linked.status) \(linked.errorText)")
                #expect(linked.outputText == real.outputText, "\(command) through a link printed \(linked.outputText), not \(real.outputText)")
                #expect(!linked.errorText.contains("no such file or folder"), "\(command): \(linked.errorText)")
            }
            let relative = try MinutafsBinary.run(["check", "link"], environment: environment, in: folder)
            #expect(relative.status == 0, "check link: \(relative.errorText)")

            let mounted = try MountedStore(in: folder, storeName: "link", copyingSample: false, environment: environment)
            let listing = try Shell.run("ls '\(mounted.january)'")
            #expect(listing.status == 0 && listing.output.contains(".json"), "\(listing.output)")
            // Mounted through the link, the store is locked: the real folder's writers are refused.
            let merge = try MinutafsBinary.run(["merge", store], environment: environment)
            #expect(merge.status == 1 && merge.errorText.contains("the store is in use"), "\(merge.errorText)")
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("while a store is mounted, doc compact -o and doc merge -o naming a new document in it are refused however the path is spelled",
          arguments: [
            "store/records/2026/12.automerge",                 // relative, a new document in a folder that exists
            "./store//records/2026/12.automerge",
            "store/records/../records/2026/11.automerge",      // `..`
            "link/records/2026/10.automerge",                  // through a link to the store
            "records-link/2026/09.automerge",                  // through a link to its records folder
            "dangling.automerge",                              // a link, not yet leading to a file, at the name
          ])
    func outputInMountedStore(output: String) throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder, environment: ["XDG_CACHE_HOME": folder + "/cache", "XDG_STATE_HOME": folder + "/state"])
            let store = mounted.store
            try FileManager.default.createDirectory(atPath: store + "/records/2026", withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "store")
            try FileManager.default.createSymbolicLink(atPath: folder + "/records-link", withDestinationPath: "store/records")
            try FileManager.default.createSymbolicLink(atPath: folder + "/dangling.automerge", withDestinationPath: "store/records/2026/08.automerge")
            try FileManager.default.copyItem(atPath: store + "/records/2024/01.automerge", toPath: folder + "/a.automerge")
            try FileManager.default.copyItem(atPath: store + "/records/2024/02.automerge", toPath: folder + "/b.automerge")
            let before = try folderSnapshot(store)
            let pid = mounted.process.processIdentifier
            for arguments in [["doc", "compact", "a.automerge", "-o", output], ["doc", "merge", "-o", output, "a.automerge", "b.automerge"]] {
                let result = try MinutafsBinary.run(arguments, in: folder)
                #expect(result.status == 1, "\(arguments) wrote into a mounted store: \(result.errorText)")
                #expect(result.errorText.contains("the store is in use: mounted at \(mounted.mountPoint) by process \(pid)"), "\(arguments): \(result.errorText)")
            }
            #expect(try folderSnapshot(store) == before, "the mounted store's files changed")
            #expect(mounted.unmount() == 0)
            // Unmounted, the same command writes the document.
            let compact = try MinutafsBinary.run(["doc", "compact", "a.automerge", "-o", output], in: folder)
            #expect(compact.status == 0, "\(compact.errorText)")
        }
    }
}
