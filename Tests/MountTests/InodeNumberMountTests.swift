import Foundation
import Testing
import TestSupport

/// `cp` and `tar` compare a file's inode number from `stat` with the one of the descriptor they open:
/// a path keeps its number when the kernel forgets the inode between the two (a cache notice or memory
/// pressure drops its name), or `cp` skips the file "as it was replaced while being copied".
@Suite(.serialized, .enabled(if: getuid() == 0, "dropping the kernel's caches needs root"))
struct InodeNumberMountTests {
    @Test("a record file and a snapshot file keep their inode numbers when the kernel forgets them")
    func numbersSurviveForget() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let record = mounted.january + "/" + BadInput.recordName
            let snapshot = mounted.mountPoint + "/.minutafs/history/2025-01-01/records/2024/01/" + BadInput.recordName
            func number(_ path: String) -> ino_t? {
                var info = stat()
                return stat(path, &info) == 0 ? info.st_ino : nil
            }
            let before = (number(record), number(snapshot))
            #expect(before.0 != nil && before.1 != nil)
            for _ in 0..<5 {
                // Drops every unused name and inode of every file system: the mount is sent FORGETs.
                #expect(try Shell.run("sync; echo 2 > /proc/sys/vm/drop_caches").status == 0)
                #expect(number(record) == before.0)
                #expect(number(snapshot) == before.1)
            }
            let copy = try Shell.run("cp '\(snapshot)' '\(folder)/copy.json' && cmp '\(snapshot)' '\(folder)/copy.json'")
            #expect(copy.status == 0, "\(copy.output)")
            #expect(mounted.unmount() == 0)
        }
    }
}
