@testable import MinutaStore
import SystemPackage
import Testing

/// A mount killed while one of its threads waits in the kernel cannot end, and keeps the store's lock:
/// the refusal of the next mount says so, names the FUSE connection (from the mount's device number in
/// mountinfo) and how to free it.
struct StuckMountTests {
    @Test("a FUSE mount's connection is named from its device number, in the kernel's encoding (MAJOR << 20 | MINOR)", arguments: [
        ("40 27 0:45 / /home/me/minuta rw - fuse.minutafs /home/me/Minuta rw", "/sys/fs/fuse/connections/45"),
        ("44 27 8:17 / /media/usb rw - fuseblk /dev/sdb1 rw", "/sys/fs/fuse/connections/8388625"),
        ("27 1 259:2 / / rw - ext4 /dev/nvme0n1p2 rw", nil),
        ("40 27 x:45 / /home/me/minuta rw - fuse.minutafs /home/me/Minuta rw", nil),
    ] as [(String, String?)])
    func connection(line: String, connection: String?) {
        #expect(MountTable(mountInfo: line).mounts.first?.fuseConnection == connection.map { FilePath($0) })
    }

    @Test("a holder whose main thread is a zombie is a process that was killed and has not ended", arguments: [
        ("Name:\tminutafs\nUmask:\t0022\nState:\tZ (zombie)\nTgid:\t4242\n", true),
        ("Name:\tminutafs\nState:\tS (sleeping)\n", false),
        ("Name:\tminutafs\nState:\tD (disk sleep)\n", false),
        ("", false),
    ] as [(String, Bool)])
    func defunct(status: String, isDefunct: Bool) {
        #expect(StoreLock.isDefunct(status: status) == isDefunct)
    }

    @Test("the refusal names the process, the mount point and the connection, and says how to free it")
    func reason() {
        let text = StoreError.storeHeldByStuckMount(
            store: "/home/me/Minuta", mountPoint: "/home/me/minuta", process: 4242, connection: "/nonexistent/connections/45"
        ).description
        #expect(text.hasPrefix("/home/me/Minuta: the store is held by a dead mount: process 4242, mounted at /home/me/minuta"))
        #expect(text.contains("`mount -t fusectl none /nonexistent/connections`, then `echo 1 > /nonexistent/connections/45/abort` (as root), then `fusermount3 -u /home/me/minuta`"))
    }
}
