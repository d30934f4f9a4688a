import FileTreeInterface
import Foundation
import SystemPackage
import Synchronization
import Testing
import TestSupport

@testable import MinutaFS

/// A record file created and closed with nothing written (`touch new.json`, `: > new.json`): the tree
/// does not save it empty, yet the file stays for a while, so the name the kernel still holds opens for
/// the command that writes it next (`touch x.json; jq … > x.json`). The kernel sends `RELEASE` after
/// `close` returned; a file dropped there would make that next open fail with `ENOENT`.
@Suite("A record created and closed empty")
struct EmptyNewFileTests {
    static let folder = "/records/2024/01"

    static func record(_ index: Int) -> String {
        #"{"id": "0A6B1C2D-3E4F-4A5B-8C6D-7E8F9A0B1C\#(String(format: "%02d", index))", "comment": "touched \#(index)"}"#
    }

    @Test("touch, then its JSON written at once: saved, every time")
    func touchThenWrite() throws {
        try MountedTree.with { mounted in
            for index in 1...40 {
                let path = Self.folder + "/touched \(index).json"
                let written = try mounted.run("sh", ["-c", #"set -e; touch "$1"; printf '%s\n' "$2" > "$1"; cat "$1""#, "sh",
                                                     mounted.path(path), Self.record(index)])
                #expect(written.status == 0, "\(index): \(written)")
                #expect(mounted.tree.text(at: path) == Self.record(index) + "\n", "\(index)")
            }
            #expect(!mounted.tree.calls.contains { if case .write(_, let bytes) = $0 { bytes.isEmpty } else { false } },
                    "no empty record was given to the tree")
        }
    }

    @Test("touch, a read of the empty file, then its JSON: saved")
    func touchReadThenWrite() throws {
        try MountedTree.with { mounted in
            let path = Self.folder + "/read first.json"
            let written = try mounted.run("sh", ["-c", #"set -e; touch "$1"; [ "$(cat "$1")" = "" ]; printf '%s' "$2" > "$1""#, "sh",
                                                 mounted.path(path), Self.record(1)])
            #expect(written.status == 0, "\(written)")
            #expect(mounted.tree.text(at: path) == Self.record(1))
        }
    }

    @Test("a touched record is listed, empty, unsaved; emptyFileLifetime after its close it is gone, and nothing was saved")
    func touchedThenForgotten() throws {
        try MountedTree.with(options: MountOptions(handlesSignals: false, emptyFileLifetime: 1)) { mounted in
            let path = mounted.path(Self.folder + "/empty.json")
            #expect(try mounted.run("touch", [path]).status == 0)
            #expect(try mounted.run("stat", ["-c", "%s", path]).outputText == "0\n")
            #expect(try mounted.run("ls", [mounted.path(Self.folder)]).outputText.contains("empty.json\n"))
            try expectEventually(within: 10) {
                try mounted.run("stat", [path]).status != 0 && !mounted.run("ls", [mounted.path(Self.folder)]).outputText.contains("empty.json")
            }
            #expect(mounted.tree.calls.isEmpty, "\(mounted.tree.calls)")
            // The name is free again: a new file under it is saved.
            let written = try mounted.run("sh", ["-c", #"printf '%s' "$2" > "$1""#, "sh", path, Self.record(2)])
            #expect(written.status == 0, "\(written)")
            #expect(mounted.tree.text(at: Self.folder + "/empty.json") == Self.record(2))
        }
    }

    @Test("a touched record stays when the kernel looks every name up again (another new record saved anywhere): then written, saved")
    func touchedSurvivesNamesLookedUpAgain() throws {
        try MountedTree.with { mounted in
            let path = Self.folder + "/kept.json"
            #expect(try mounted.run("touch", [mounted.path(path)]).status == 0)
            // A change that may rename (as the store reports a new record, filed under a name of its own):
            // the kernel drops every name it cached, forgets the touched file's inode, and looks it up again.
            mounted.tree.changeUnderneath(file: Self.folder + "/elsewhere.json", to: Self.record(1))
            #expect(try mounted.run("stat", ["-c", "%s", mounted.path(path)]).outputText == "0\n")
            let script = "import sys\nwith open(sys.argv[1], 'r+') as f: f.write(sys.argv[2])"
            let written = try mounted.run("python3", ["-c", script, mounted.path(path), Self.record(2)])
            #expect(written.status == 0, "\(written)")
            #expect(mounted.tree.text(at: path) == Self.record(2))
        }
    }

    @Test("mv of a touched record onto a record is refused (EPERM), as between records: the record stays shown, whole")
    func touchedMovedOntoRecord() throws {
        try MountedTree.with { mounted in
            let touched = mounted.path(Self.folder + "/touched.json")
            #expect(try mounted.run("touch", [touched]).status == 0)
            let moved = try mounted.run("mv", [touched, mounted.path(InMemoryTree.recordPath)])
            #expect(moved.status != 0)
            #expect(moved.errorText.contains("Operation not permitted"), "\(moved)")
            #expect(try mounted.run("cat", [mounted.path(InMemoryTree.recordPath)]).outputText == InMemoryTree.record)
            #expect(try mounted.run("stat", ["-c", "%s", touched]).outputText == "0\n", "the touched file stays where it was")
            // To a free name it moves, and is saved there once written.
            let free = mounted.path(Self.folder + "/free.json")
            #expect(try mounted.run("mv", [touched, free]).status == 0)
            #expect(try mounted.run("sh", ["-c", #"printf '%s' "$2" > "$1""#, "sh", free, Self.record(3)]).status == 0)
            #expect(mounted.tree.text(at: Self.folder + "/free.json") == Self.record(3))
            #expect(mounted.tree.text(at: InMemoryTree.recordPath) == InMemoryTree.record)
        }
    }

    @Test("a file the folder gets under a touched name (a record filed there, a delivery) shows at once, not the empty file")
    func touchedGivesWayToTreeFile() throws {
        try MountedTree.with { mounted in
            let path = Self.folder + "/2024-01-21_080000.json"
            #expect(try mounted.run("touch", [mounted.path(path)]).status == 0)
            #expect(try mounted.run("stat", ["-c", "%s", mounted.path(path)]).outputText == "0\n")
            mounted.tree.changeUnderneath(file: path, to: Self.record(4))
            #expect(try mounted.run("cat", [mounted.path(path)]).outputText == Self.record(4))
            let listed = try mounted.run("ls", [mounted.path(Self.folder)]).outputText
            #expect(listed.components(separatedBy: "\n").filter { $0 == "2024-01-21_080000.json" }.count == 1, "\(listed)")
        }
    }

    @Test("a name created and closed empty after the folder got a file under it meanwhile: the file shows, not an empty one")
    func closedEmptyAfterTreeFileArrived() throws {
        try MountedTree.with { mounted in
            let path = Self.folder + "/2024-01-22_080000.json"
            let script = """
                import os, sys
                descriptor = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                sys.stdout.write("created\\n"); sys.stdout.flush()
                sys.stdin.readline()
                os.close(descriptor)
                """
            let creator = try PausedProgram("/usr/bin/python3", ["-c", script, mounted.path(path)])
            #expect(creator.line() == "created")
            mounted.tree.changeUnderneath(file: path, to: Self.record(5))
            #expect(try creator.resume().status == 0)
            #expect(try mounted.run("cat", [mounted.path(path)]).outputText == Self.record(5))
        }
    }

    @Test("rmdir of a folder holding a touched record fails with ENOTEMPTY, and the file stays")
    func folderWithTouchedFileNotRemoved() throws {
        try MountedTree.with { mounted in
            let folder = mounted.path("/records/2025/02")
            #expect(try mounted.run("mkdir", ["-p", folder]).status == 0)
            #expect(try mounted.run("touch", [folder + "/t.json"]).status == 0)
            let removed = try mounted.run("rmdir", [folder])
            #expect(removed.status != 0)
            #expect(removed.errorText.contains("not empty"), "\(removed)")
            #expect(try mounted.run("ls", [folder]).outputText == "t.json\n")
            #expect(!mounted.tree.calls.contains(.removeDirectory("/records/2025/02")), "\(mounted.tree.calls)")
        }
    }

    @Test("rm of a touched record: gone at once, nothing given to the tree; the mount's end saves nothing either")
    func touchedThenRemoved() throws {
        try MountedTree.with { mounted in
            let removed = mounted.path(Self.folder + "/removed.json")
            let left = mounted.path(Self.folder + "/left.json")
            let result = try mounted.run("sh", ["-c", #"set -e; touch "$1" "$2"; rm "$1"; ! [ -e "$1" ]; [ -e "$2" ]"#, "sh", removed, left])
            #expect(result.status == 0, "\(result)")
            #expect(!(try mounted.run("ls", [mounted.path(Self.folder)]).outputText.contains("removed.json")))
            #expect(mounted.unmountAndWait() != nil)
            #expect(mounted.tree.calls.isEmpty, "\(mounted.tree.calls)")
        }
    }

    @Test("an image touched empty is saved at its close: the tree keeps empty images")
    func touchedImageSaved() throws {
        try MountedTree.with { mounted in
            let image = Self.folder + "/0A6B1C2D-3E4F-4A5B-8C6D-7E8F9A0B1C2D_0.jpg"
            #expect(try mounted.run("touch", [mounted.path(image)]).status == 0)
            try expectEventually(within: 5) { mounted.tree.calls == [.write(image, [])] }
        }
    }

    @Test("truncate of a touched record: to 0 changes nothing; longer is refused as the tree refuses those bytes")
    func touchedThenTruncated() throws {
        try MountedTree.with { mounted in
            let path = mounted.path(Self.folder + "/truncated.json")
            #expect(try mounted.run("touch", [path]).status == 0)
            #expect(try mounted.run("truncate", ["-s", "0", path]).status == 0)
            let longer = try mounted.run("truncate", ["-s", "3", path])
            #expect(longer.status != 0)
            #expect(longer.errorText.contains("Invalid argument"), "\(longer)")
            #expect(!mounted.tree.exists(Self.folder + "/truncated.json"))
        }
    }

    /// Keeps every notice instead of sending it.
    final class RecordingKernel: KernelCacheInvalidating {
        let notices = Mutex<[KernelCacheNotice]>([])
        func invalidate(_ notices: [KernelCacheNotice]) { self.notices.withLock { $0 += notices } }
    }

    @Test("forgotten: the kernel is told the name and the folder's listing are gone, and the log says why")
    func forgottenIsLoggedAndNoticed() throws {
        let kernel = RecordingKernel()
        let lines = Mutex<[String]>([])
        let fileSystem = FuseFileSystem(
            tree: InMemoryTree.sample(), isReadOnly: false, removalDelay: 0, emptyFileLifetime: 0.2, invalidator: kernel,
            log: { line in lines.withLock { $0.append(line) } })
        var folder = InodeTable.rootInode
        for name in ["records", "2024", "01"] { folder = try fileSystem.lookUp(name, inDirectory: folder).inode }
        let (created, opened) = try fileSystem.create("new.json", inDirectory: folder, permissions: 0o644, flags: OpenFlags(isWritable: true))
        fileSystem.release(handle: opened.handle)
        #expect(try fileSystem.lookUp("new.json", inDirectory: folder).size == 0)
        // The kernel forgets the inode (its names were dropped): the file is still there, by the same number.
        fileSystem.forget(2, ofInode: created.inode)
        #expect(try fileSystem.lookUp("new.json", inDirectory: folder).inode == created.inode)
        fileSystem.forget(1, ofInode: created.inode)
        try expectEventually(within: 5) { !lines.withLock { $0 }.isEmpty }
        #expect(lines.withLock { $0 } == [
            "/records/2024/01/new.json: nothing was written to it since it was created; not saved (a record needs its JSON), and gone from the folder",
        ])
        #expect(throws: Errno.noSuchFileOrDirectory) { try fileSystem.lookUp("new.json", inDirectory: folder) }
        let notices = kernel.notices.withLock { $0 }
        #expect(notices.contains(.inode(created.inode)))
        #expect(notices.contains(.entry(parent: folder, name: "new.json")))
        #expect(notices.contains(.inode(folder)))
    }
}
