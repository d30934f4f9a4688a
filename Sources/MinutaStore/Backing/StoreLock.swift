import Crypto
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// One minutafs writer per store per machine, whoever runs it (SPEC 5a): the mount, `merge`,
/// `migrate` and an in-place `doc compact` hold this lock while they may write the store's
/// documents, so two of them never replace each other's saves.
///
/// The lock is `flock(LOCK_EX)` on the store folder itself (a read-only descriptor of it), so it
/// is the same lock for every user, HOME and `XDG_*` setting (a root fstab mount, `sudo`, a systemd
/// unit), and nothing for it is written anywhere, least of all into the synced folder. The kernel
/// releases it when the holder exits, however it exits. A refusal names the holder from
/// `/proc/locks` (its pid) and the mount table (its mount point).
public final class StoreLock: Sendable {
    /// The open store folder; closing it releases the lock.
    private let descriptor: Int32
    /// The store folder locked, as given.
    public let storeFolder: FilePath

    /// Takes the lock of the store folder at `storeFolder`.
    /// - Throws: ``StoreError/storeInUse(store:holder:)`` when another process holds it (the holder
    ///   says who: "mounted at /home/me/minuta by process 4242"), ``StoreError/system(file:operation:errno:)``
    ///   when the folder cannot be opened or the filesystem refuses `flock`.
    public init(storeFolder: FilePath) throws(StoreError) {
        self.storeFolder = storeFolder
        let storePath = storeFolder.string
        var opened: Int32
        repeat { opened = open(storePath, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } while opened < 0 && errno == EINTR
        guard opened >= 0 else { throw .system(file: storePath, operation: "open the store folder to lock it", errno: Errno(rawValue: errno)) }
        var result: Int32
        repeat { result = flock(opened, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let code = errno
            var info = stat()
            let identity = fstat(opened, &info) == 0 ? (device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) : nil
            close(opened)
            if code == EWOULDBLOCK {
                guard let identity else { throw .storeInUse(store: storePath, holder: "another minutafs process") }
                throw Self.refusal(storePath: storePath, device: identity.device, inode: identity.inode)
            }
            throw .system(file: storePath, operation: "lock the store folder (flock)", errno: Errno(rawValue: code))
        }
        descriptor = opened
    }

    deinit { close(descriptor) }

    /// Why the folder with `device` and `inode` cannot be locked: a mount that was killed and cannot
    /// end (its process a zombie whose connection still waits: ``StoreError/storeHeldByStuckMount(store:mountPoint:process:connection:)``),
    /// or whoever else holds it (``holder(device:inode:)``).
    static func refusal(storePath: String, device: UInt64, inode: UInt64) -> StoreError {
        let locks = (try? BackingFiles.read("/proc/locks", limit: 64 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        if let pid = Self.lockingProcess(inLocks: locks, major: Self.major(device), minor: Self.minor(device), inode: inode),
           Self.isDefunct(status: (try? BackingFiles.read("/proc/\(pid)/status", limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""),
           let mount = Self.minutafsMount(ofFolderWithDevice: device, inode: inode), let connection = mount.fuseConnection {
            return .storeHeldByStuckMount(store: storePath, mountPoint: mount.mountPoint.string, process: pid, connection: connection.string)
        }
        return .storeInUse(store: storePath, holder: Self.holder(device: device, inode: inode))
    }

    /// Whether `/proc/PID/status` text is a process that has ended (`State: Z`) yet, holding a lock,
    /// still has a thread that has not: a killed process stuck in the kernel.
    static func isDefunct(status text: String) -> Bool {
        text.split(separator: "\n").contains { $0.hasPrefix("State:") && $0.dropFirst("State:".count).drop { $0 == " " || $0 == "\t" }.hasPrefix("Z") }
    }

    /// The minutafs mount whose source is the folder with `device` and `inode` (by identity: the source is
    /// the path the mount was given, which may be another name for it), the last one in the table.
    private static func minutafsMount(ofFolderWithDevice device: UInt64, inode: UInt64) -> MountTable.Mount? {
        guard let table = try? MountTable.current() else { return nil }
        return table.mounts.last { mount in
            guard mount.isMinutafs else { return false }
            var info = stat()
            return stat(mount.source, &info) == 0 && UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
        }
    }

    /// Who holds the lock of the folder with `device` and `inode`, in words: "mounted at M by
    /// process P", "process P (minutafs merge /x)", or "another minutafs process" when the
    /// kernel does not say (another pid namespace, `/proc` hidden).
    static func holder(device: UInt64, inode: UInt64) -> String {
        let locks = (try? BackingFiles.read("/proc/locks", limit: 64 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let pid = Self.lockingProcess(inLocks: locks, major: Self.major(device), minor: Self.minor(device), inode: inode)
        let arguments = pid.map(Self.commandLine(ofProcess:)) ?? []
        let isMount = pid == nil || arguments.dropFirst().contains("mount")
        if isMount, let mount = Self.minutafsMount(ofFolderWithDevice: device, inode: inode) {
            return "mounted at \(mount.mountPoint.string)" + (pid.map { " by process \($0)" } ?? "")
        }
        guard let pid else { return "another minutafs process" }
        guard let program = arguments.first else { return "process \(pid)" }
        let name = program.split(separator: "/").last.map(String.init) ?? program
        return "process \(pid) (\(([name] + arguments.dropFirst()).joined(separator: " ")))"
    }

    /// The pid of the `flock` write lock on the file `major:minor:inode` in `/proc/locks` text
    /// (`1: FLOCK  ADVISORY  WRITE 4242 00:2f:1234 0 EOF`; device numbers in hex), or nil.
    static func lockingProcess(inLocks text: String, major: UInt64, minor: UInt64, inode: UInt64) -> Int32? {
        for line in text.split(separator: "\n") {
            // A waiting request is marked "->"; it holds nothing.
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", fields[3] == "WRITE" else { continue }
            let file = fields[5].split(separator: ":")
            guard file.count == 3, UInt64(file[0], radix: 16) == major, UInt64(file[1], radix: 16) == minor, UInt64(file[2]) == inode,
                  let pid = Int32(fields[4]), pid > 0 else { continue }
            return pid
        }
        return nil
    }

    /// The arguments process `pid` was started with, or none when they cannot be read.
    private static func commandLine(ofProcess pid: Int32) -> [String] {
        guard let bytes = try? BackingFiles.read("/proc/\(pid)/cmdline", limit: 1 << 20) else { return [] }
        return bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// glibc's `major()` and `minor()` (macros Swift does not import).
    static func major(_ device: UInt64) -> UInt64 { ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff)) }
    static func minor(_ device: UInt64) -> UInt64 { (device & 0xff) | ((device >> 12) & ~UInt64(0xff)) }

    /// The name a store's state files (log, move journal) carry: the first 12 bytes of the SHA-256 of its real path, in hex.
    public static func fileKey(for storeFolder: FilePath) -> String { key(for: storeFolder.string) }

    static func key(for storePath: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let real = realpath(storePath, &buffer) != nil
            ? String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self) : storePath
        return fileKey(forName: real)
    }

    /// The same kind of key for a name that is not a place in the file system (a sync peer's
    /// identity): nothing is resolved, the name's bytes are hashed as they are.
    public static func fileKey(forName name: String) -> String {
        SHA256.hash(data: Array(name.utf8)).prefix(12).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
