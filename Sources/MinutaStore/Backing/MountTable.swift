import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The kernel's table of mounts as this process sees them (`/proc/self/mountinfo`): which mount
/// holds a path, and what it is.
///
/// A minutafs mount looks like a legacy JSON store (`tags.json`, `records/YYYY/MM/*.json`), so what
/// a folder contains cannot tell a mount from a store; the mount table can (SPEC 5b): a mount shows
/// as type `fuse.minutafs` with the store's path as its source (`subtype=minutafs`, `fsname=STORE`).
public struct MountTable: Sendable, Equatable {
    /// One line of the table.
    public struct Mount: Sendable, Equatable {
        /// Where it is mounted, as an absolute path in this process's view.
        public let mountPoint: FilePath
        /// `ext4`, `fuse.minutafs`, `fuse.sshfs`, `fuseblk`, ...
        public let fileSystemType: String
        /// What is mounted: a device, or the store folder of a minutafs mount.
        public let source: String
        /// The file system's device number, as the kernel writes it (`MAJ:MIN`), or nil when the line
        /// had none that reads as one.
        public let device: (major: UInt64, minor: UInt64)?

        public init(mountPoint: FilePath, fileSystemType: String, source: String, device: (major: UInt64, minor: UInt64)? = nil) {
            self.mountPoint = mountPoint
            self.fileSystemType = fileSystemType
            self.source = source
            self.device = device
        }

        public static func == (left: Mount, right: Mount) -> Bool {
            left.mountPoint == right.mountPoint && left.fileSystemType == right.fileSystemType && left.source == right.source
                && left.device?.major == right.device?.major && left.device?.minor == right.device?.minor
        }

        /// The folder of a FUSE mount's connection in the FUSE control file system
        /// (`/sys/fs/fuse/connections/N`, N being the device number in the kernel's own encoding,
        /// `MAJOR << 20 | MINOR`), where writing `1` to `abort` ends a connection whose server is stuck.
        public var fuseConnection: FilePath? {
            guard isFUSE, let device else { return nil }
            return FilePath("/sys/fs/fuse/connections/\(device.major << 20 | device.minor)")
        }

        /// A minutafs mount; ``source`` is its store.
        public var isMinutafs: Bool { fileSystemType == "fuse.minutafs" }

        /// Any FUSE filesystem (minutafs, sshfs, rclone, ntfs-3g, ...): what is written there is
        /// what a program makes of it, not a file on a disk.
        public var isFUSE: Bool { fileSystemType == "fuse" || fileSystemType == "fuseblk" || fileSystemType.hasPrefix("fuse.") }
    }

    /// The mounts in the table's order: a later one on the same mount point hides an earlier one.
    public let mounts: [Mount]

    /// Reads `mountinfo` text (proc(5)): `ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - TYPE
    /// SOURCE SUPEROPTIONS`, with a space, tab, newline or backslash in a field written as an octal
    /// escape (`\040`). A line that does not have that shape is skipped.
    public init(mountInfo text: String) {
        var mounts: [Mount] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // Six fields before the optional ones, then "-", type and source.
            guard fields.count >= 9, let separator = fields[6...].firstIndex(of: "-"), separator + 2 < fields.count else { continue }
            let mountPoint = Self.unescaped(fields[4])
            guard mountPoint.hasPrefix("/") else { continue }
            let numbers = fields[2].split(separator: ":")
            let device = numbers.count == 2 ? UInt64(numbers[0]).flatMap { major in UInt64(numbers[1]).map { (major, $0) } } : nil
            mounts.append(Mount(
                mountPoint: FilePath(mountPoint), fileSystemType: Self.unescaped(fields[separator + 1]), source: Self.unescaped(fields[separator + 2]),
                device: device))
        }
        self.mounts = mounts
    }

    /// This process's mount table.
    /// - Throws: ``StoreError/system(file:operation:errno:)`` when `/proc/self/mountinfo` cannot be read.
    public static func current() throws(StoreError) -> MountTable {
        let path = "/proc/self/mountinfo"
        let bytes = try BackingFiles.read(path, limit: 64 << 20)
        return MountTable(mountInfo: String(decoding: bytes, as: UTF8.self))
    }

    /// The mount that holds `absolutePath` (give it as ``absolutePath(of:)`` makes it): the one
    /// with the longest mount point containing it, the last listed on the same mount point.
    public func mount(containing absolutePath: FilePath) -> Mount? {
        let absolutePath = absolutePath.string
        var found: Mount?
        for mount in mounts where Self.contains(mount.mountPoint.string, absolutePath) {
            if let current = found, current.mountPoint.string.utf8.count > mount.mountPoint.string.utf8.count { continue }
            found = mount
        }
        return found
    }

    private static func contains(_ mountPoint: String, _ path: String) -> Bool {
        mountPoint == "/" || path == mountPoint || path.hasPrefix(mountPoint + "/")
    }

    /// `path` made absolute as the mount table names it: symbolic links resolved (`realpath`) in
    /// the longest leading part that exists and answers, `.` and `..` removed from the rest. A
    /// mount whose server is gone (`ENOTCONN`) or a path not yet created is still placed correctly.
    public static func absolutePath(of path: FilePath) -> FilePath {
        FilePath(resolved(path.string))
    }

    private static func resolved(_ path: String) -> String {
        var components: [Substring] = []
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            if getcwd(&buffer, buffer.count) != nil {
                let directory = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                components = directory.split(separator: "/")
            }
        }
        for component in path.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(component)
            }
        }
        // The longest leading part realpath resolves, then the rest as written.
        var resolvedCount = components.count
        while resolvedCount > 0 {
            let prefix = "/" + components[..<resolvedCount].joined(separator: "/")
            if let real = realPath(prefix) {
                let rest = components[resolvedCount...]
                return rest.isEmpty ? real : (real == "/" ? "" : real) + "/" + rest.joined(separator: "/")
            }
            resolvedCount -= 1
        }
        return "/" + components.joined(separator: "/")
    }

    private static func realPath(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &buffer) != nil else { return nil }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Undoes the kernel's octal escapes (`\040` is a space, `\134` a backslash).
    static func unescaped(_ field: Substring) -> String {
        let bytes = Array(field.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), index + 4 <= bytes.count {
                let digits = bytes[(index + 1)..<(index + 4)]
                if digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) }) {
                    let value = digits.reduce(0) { $0 * 8 + Int($1 - UInt8(ascii: "0")) }
                    if value <= 255 {
                        result.append(UInt8(value))
                        index += 4
                        continue
                    }
                }
            }
            result.append(bytes[index])
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }
}
