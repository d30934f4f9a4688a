import MinutaStore
import SystemPackage
import Testing

/// The kernel's mount table as `/proc/self/mountinfo` gives it: which mount holds a path, and
/// whether that is a minutafs mount (and of which store) or another FUSE filesystem (SPEC 5b).
struct MountTableTests {
    /// Lines as the kernel writes them: a space in a mount point or a source is `\040`, a tab
    /// `\011`, a newline `\012`, a backslash `\134`; optional fields (`shared:1`) come before `-`.
    static let sample = """
        22 27 0:21 / /proc rw,relatime - proc proc rw
        27 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw
        40 27 0:45 / /home/me/minuta rw,nosuid,nodev,relatime shared:90 - fuse.minutafs /home/me/Dropbox/Minuta rw,user_id=1000,group_id=1000
        41 27 0:46 / /home/me/My\\040Minuta rw,nosuid,nodev,relatime - fuse.minutafs /home/me/Drop\\134box/Min\\011uta\\040\\012x rw,user_id=1000
        42 27 0:47 / /home/me/remote rw,nosuid,nodev - fuse.sshfs me@host:/srv rw,user_id=1000
        43 42 0:48 / /home/me/remote/inner rw - tmpfs tmpfs rw
        44 27 0:49 / /media/usb rw - fuseblk /dev/sdb1 rw
        45 27 0:50 / /home/me/minuta rw,nosuid,nodev,relatime - fuse.minutafs /home/me/Other rw
        a truncated line
        46 27 0:51 / /half - 
        """

    @Test("each line gives its mount point, type and source, with the kernel's octal escapes undone")
    func parsesLines() {
        let table = MountTable(mountInfo: Self.sample)
        #expect(table.mounts.count == 8)
        #expect(table.mounts.map(\.mountPoint) == [
            "/proc", "/", "/home/me/minuta", "/home/me/My Minuta", "/home/me/remote", "/home/me/remote/inner", "/media/usb", "/home/me/minuta",
        ])
        #expect(table.mounts[3].source == "/home/me/Drop\\box/Min\tuta \nx")
        #expect(table.mounts[3].fileSystemType == "fuse.minutafs")
        #expect(table.mounts[4].source == "me@host:/srv")
    }

    @Test("the mount holding a path is the one with the longest mount point; a later mount on the same point hides an earlier one", arguments: [
        ("/home/me/minuta", "/home/me/minuta", "/home/me/Other"),
        ("/home/me/minuta/records/2024/01", "/home/me/minuta", "/home/me/Other"),
        ("/home/me/minutaX", "/", "/dev/nvme0n1p2"),
        ("/home/me/My Minuta/tags.json", "/home/me/My Minuta", "/home/me/Drop\\box/Min\tuta \nx"),
        ("/home/me/remote/inner/file", "/home/me/remote/inner", "tmpfs"),
        ("/home/me/remote/a", "/home/me/remote", "me@host:/srv"),
        ("/", "/", "/dev/nvme0n1p2"),
    ] as [(String, String, String)])
    func longestMountPoint(path: String, mountPoint: String, source: String) {
        let mount = MountTable(mountInfo: Self.sample).mount(containing: FilePath(path))
        #expect(mount?.mountPoint == FilePath(mountPoint))
        #expect(mount?.source == source)
    }

    @Test("minutafs mounts and other FUSE filesystems are told apart by type", arguments: [
        ("/home/me/minuta/x", true, true),
        ("/home/me/remote/x", false, true),
        ("/media/usb/x", false, true),
        ("/home/me/remote/inner/x", false, false),
        ("/home/me/Dropbox/Minuta", false, false),
    ] as [(String, Bool, Bool)])
    func kinds(path: String, isMinutafs: Bool, isFUSE: Bool) {
        let mount = MountTable(mountInfo: Self.sample).mount(containing: FilePath(path))
        #expect(mount?.isMinutafs == isMinutafs)
        #expect(mount?.isFUSE == isFUSE)
    }

    @Test("an empty or unreadable table holds no mounts and contains nothing")
    func empty() {
        #expect(MountTable(mountInfo: "").mounts.isEmpty)
        #expect(MountTable(mountInfo: "").mount(containing: "/x") == nil)
    }

    @Test("this process's table has the root mount and /proc")
    func current() throws {
        let table = try MountTable.current()
        #expect(table.mount(containing: "/") != nil)
        #expect(table.mount(containing: "/proc/self")?.fileSystemType == "proc")
    }

    @Test("the absolute form of a path: symbolic links resolved where the path exists, . and .. removed where it does not")
    func absolutePath() {
        #expect(MountTable.absolutePath(of: "/proc/../proc/") == "/proc")
        #expect(MountTable.absolutePath(of: "/no/such/./folder/../file") == "/no/such/file")
        #expect(MountTable.absolutePath(of: "/") == "/")
    }
}
