import CLinuxCalls

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The program a request of the kernel comes from: its thread group, the process id `ps` shows.
///
/// The kernel names the calling *thread* (`fuse_req_ctx`); a threaded program reads a file on one
/// thread and saves it on another, so reads and saves are matched by the thread group the thread
/// belongs to. A thread that leads its group is its own (`pidfd_open` tells, in about 3 µs); for
/// another, the group is read from `/proc/TID/status`, which the kernel formats whole for each read:
/// 10 µs warm, about 60 µs at a person's save, when a new process (`cp`, `sed -i`) opens the file.
struct ProgramID: Hashable, Sendable {
    let threadGroup: Int32

    init(threadGroup: Int32) {
        self.threadGroup = threadGroup
    }

    /// The program of thread `threadID`; nil for 0 (a request the kernel sends on no program's
    /// behalf, such as `release`). A thread whose status cannot be read (it ended) stands for itself.
    init?(threadID: Int32) {
        guard threadID > 0 else { return nil }
        if minutafs_is_thread_group_leader(threadID) == 1 {
            self.init(threadGroup: threadID)
        } else {
            self.init(threadGroup: Self.threadGroup(ofThread: threadID) ?? threadID)
        }
    }

    /// The `Tgid:` line of `/proc/TID/status`.
    static func threadGroup(ofThread threadID: Int32) -> Int32? {
        let descriptor = open("/proc/\(threadID)/status", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // `Tgid:` is the fourth line, well within the first 512 bytes.
        var buffer = [UInt8](repeating: 0, count: 512)
        var count = 0
        while count < buffer.count {
            let read = buffer.withUnsafeMutableBytes { raw in
                Glibc.read(descriptor, raw.baseAddress.map { $0 + count }, raw.count - count)
            }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { break }
            count += read
        }
        let text = buffer[..<count]
        let label = Array("\nTgid:".utf8)
        guard let start = text.indices.first(where: { text[$0...].starts(with: label) }) else { return nil }
        var value: Int32 = 0
        var sawDigit = false
        for byte in text[(start + label.count)...] {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { if sawDigit { break } else { continue } }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { break }
            let (multiplied, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            value = multiplied + Int32(byte - UInt8(ascii: "0"))
            sawDigit = true
        }
        return sawDigit && value > 0 ? value : nil
    }
}
