#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The kernel's side of a mount, as the FUSE control file system shows it
/// (`/sys/fs/fuse/connections/N/`, where N is the mount's device number).
struct KernelConnection: Sendable {
    /// The folder of this connection's control files.
    let controlFolder: String

    /// The connection serving `mountPoint` (stat it while it is mounted); nil if it cannot be stat'ed.
    init?(mountPoint: String) {
        var status = stat()
        guard stat(mountPoint, &status) == 0 else { return nil }
        self.init(device: UInt64(status.st_dev))
    }

    /// The connection of a file system whose `st_dev` is `device`.
    init(device: UInt64) {
        // glibc's dev_t holds the major number in bits 8-19 (and 32-43) and the minor in bits 0-7 and
        // 12-31 (and 44-63); the kernel names the connection by its own encoding, major << 20 | minor.
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        controlFolder = "/sys/fs/fuse/connections/\(major << 20 | minor)"
    }

    /// Aborts the connection: every request waiting for an answer fails with `ENOTCONN`. Best effort:
    /// does nothing when the control file system is not mounted (it is not on every system) or when the
    /// connection is gone already.
    func abort() {
        let descriptor = open(controlFolder + "/abort", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = write(descriptor, "1", 1)
        close(descriptor)
    }
}
