import Foundation
import MinutaFS
import Testing
import TestSupport

/// The kernel caches names, attributes and pages for a long time (`MountOptions.cacheTimeout`); what
/// changes underneath must still show at once (SPEC section 5).
@Suite("Kernel caches follow the tree")
struct CacheInvalidationTests {
    /// Long enough that only an invalidation, not expiry, can explain a fresh read.
    static let options = MountOptions(handlesSignals: false, cacheTimeout: 3600)

    @Test("a change reported by the tree shows in cat and stat within 2 s")
    func changeUnderneathShows() throws {
        try MountedTree.with(options: Self.options) { mounted in
            let record = mounted.path(InMemoryTree.recordPath)
            // Read twice so the kernel holds the pages and keeps them across opens.
            #expect(try mounted.run("cat", [record]).outputText == InMemoryTree.record)
            #expect(try mounted.run("cat", [record]).outputText == InMemoryTree.record)

            let changed = InMemoryTree.record.replacing("planning the sprint", with: "merged from another device, longer")
            mounted.tree.changeUnderneath(file: InMemoryTree.recordPath, to: changed)
            // stat first: it opens nothing, so only an invalidation can refresh the size.
            try expectEventually(within: 2) {
                try mounted.run("stat", ["-c", "%s", record]).outputText == "\(changed.utf8.count)\n"
            }
            #expect(try mounted.run("cat", [record]).outputText == changed)
        }
    }

    @Test("a file the tree adds or removes underneath appears and disappears in lookups")
    func namesFollow() throws {
        try MountedTree.with(options: Self.options) { mounted in
            let path = "/records/2024/01/2024-01-16_080000.json"
            #expect(try mounted.run("stat", [mounted.path(path)]).status != 0)
            mounted.tree.changeUnderneath(file: path, to: "{}\n")
            try expectEventually(within: 2) { try mounted.run("cat", [mounted.path(path)]).outputText == "{}\n" }

            #expect(try mounted.run("stat", [mounted.path(InMemoryTree.recordPath)]).status == 0)
            try mounted.tree.removeFile(atPath: InMemoryTree.recordPath)
            mounted.tree.reportChange([InMemoryTree.recordPath])
            try expectEventually(within: 2) { try mounted.run("stat", [mounted.path(InMemoryTree.recordPath)]).status != 0 }
        }
    }

    @Test("a read-only view is read fresh at every open, even when the tree reports nothing")
    func readOnlyViewIsUncached() throws {
        try MountedTree.with(options: Self.options) { mounted throws in
            let status = mounted.path("/.minutafs/status")
            #expect(try mounted.run("cat", [status]).outputText.hasSuffix("pending writes: 0\n"))
            mounted.tree.put(file: "/.minutafs/status", "store: /tmp/store\npending writes: 12345\nlast merge: now\n", isWritable: false)
            #expect(try mounted.run("cat", [status]).outputText.hasSuffix("pending writes: 12345\nlast merge: now\n"))
        }
    }

    @Test("the tree re-lays out what was written: cat and stat show the tree's bytes at once")
    func ownSaveShowsTreeBytes() throws {
        try MountedTree.with(options: Self.options) { mounted in
            mounted.tree.setNormalizesJSON(true)
            let record = mounted.path(InMemoryTree.recordPath)
            let script = """
                import sys
                with open(sys.argv[1], "w") as file:
                    file.write('{"id":"5F1C4A2E-0B6D-4C8E-9A3F-2D7B1E6C8A90","comment":"compact"}')
                """
            #expect(try mounted.run("python3", ["-c", script, record]).status == 0)
            let stored = try #require(mounted.tree.text(at: InMemoryTree.recordPath))
            #expect(stored.contains("\n  \"comment\" : \"compact\""))
            // stat before cat: an open would refresh the size by itself.
            #expect(try mounted.run("stat", ["-c", "%s", record]).outputText == "\(stored.utf8.count)\n")
            #expect(try mounted.run("cat", [record]).outputText == stored)
        }
    }

    @Test("sed -i onto a record the tree re-lays out shows the tree's bytes")
    func renamedSaveShowsTreeBytes() throws {
        try MountedTree.with(options: Self.options) { mounted in
            mounted.tree.setNormalizesJSON(true)
            let record = mounted.path(InMemoryTree.recordPath)
            #expect(try mounted.run("cat", [record]).outputText == InMemoryTree.record)
            #expect(try mounted.run("sed", ["-i", "s/planning/reviewing/", record]).status == 0)
            let stored = try #require(mounted.tree.text(at: InMemoryTree.recordPath))
            #expect(stored != InMemoryTree.record.replacing("planning", with: "reviewing"))
            #expect(try mounted.run("stat", ["-c", "%s", record]).outputText == "\(stored.utf8.count)\n")
            #expect(try mounted.run("cat", [record]).outputText == stored)
        }
    }

    /// A program that resolved the name before a save by rename holds the old inode: on a disk
    /// it reads the old bytes, whole, and can open that inode again. Before the fix the first read of such
    /// a handle was empty and the reopen failed with ENOENT.
    @Test("a record opened before a save by rename reads and reopens as the old version; the name shows the new one")
    func oldInodeKeepsOldVersion() throws {
        try MountedTree.with(options: Self.options) { mounted in
            let record = mounted.path(InMemoryTree.recordPath)
            let replacement = InMemoryTree.record.replacing("planning the sprint", with: "saved by os.replace, a longer comment")
            let script = """
                import os, sys
                path, new = sys.argv[1], sys.argv[2]
                held = os.open(path, os.O_RDONLY)  # resolved before the save, nothing read yet
                temporary = os.path.join(os.path.dirname(path), "tmpk3j2")
                with open(temporary, "w") as out:
                    out.write(new)
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(temporary, path)
                first = os.read(held, 1 << 20)
                size = os.fstat(held).st_size
                again = os.open("/proc/self/fd/%d" % held, os.O_RDONLY)
                second = os.read(again, 1 << 20)
                with open(path, "rb") as current:
                    third = current.read()
                sys.stdout.write("%d\\n%s|%s|%s" % (size, first.decode(), second.decode(), third.decode()))
                """
            let result = try mounted.run("python3", ["-c", script, record, replacement])
            #expect(result.status == 0, "\(result)")
            let old = InMemoryTree.record
            #expect(result.outputText == "\(old.utf8.count)\n\(old)|\(old)|\(replacement)")
            #expect(try mounted.run("cat", [record]).outputText == replacement)
        }
    }
}

/// Polls `condition` until it holds, recording an issue after `seconds`.
func expectEventually(
    within seconds: Double, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool
) throws {
    if try !eventually(within: seconds, condition) {
        Issue.record("still not true after \(seconds) s", sourceLocation: sourceLocation)
    }
}
