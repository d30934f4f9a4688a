import Foundation

/// File operations through a mount as a program makes them, with the `errno` of the call that
/// failed: what a crash test needs to tell a confirmed save (close or fsync returned 0) from one
/// whose outcome is unknown.
enum MountClient {
    struct Outcome: Equatable, CustomStringConvertible {
        /// 0 when every call succeeded.
        var errno: Int32
        /// The call that failed (`open`, `write`, `fsync`, `close`, `unlink`), or "".
        var call: String
        /// Whether an `fsync` returned 0 (the save is durable even if `close` then failed).
        var synced = false

        static let success = Outcome(errno: 0, call: "")
        var succeeded: Bool { errno == 0 }
        /// The save reached the store: `close` returned 0, or an `fsync` after the last write did.
        var isConfirmed: Bool { errno == 0 || synced }
        var description: String { succeeded ? "ok" : "\(call): \(String(cString: strerror(errno)))" }
    }

    /// Writes a whole file: open (creating it, truncating), write, optionally fsync, close.
    static func write(_ bytes: [UInt8], to path: String, fsync syncing: Bool = false) -> Outcome {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return Outcome(errno: errno, call: "open") }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, min($0.count, 1 << 20)) }
            if count < 0 {
                let failure = errno
                close(descriptor)
                return Outcome(errno: failure, call: "write")
            }
            written += count
        }
        var synced = false
        if syncing {
            guard fsync(descriptor) == 0 else {
                let failure = errno
                close(descriptor)
                return Outcome(errno: failure, call: "fsync")
            }
            synced = true
        }
        guard close(descriptor) == 0 else { return Outcome(errno: errno, call: "close", synced: synced) }
        return .success
    }

    /// `mkdir`; a folder that exists already is fine.
    static func makeDirectory(_ path: String) -> Outcome {
        mkdir(path, 0o755) == 0 || errno == EEXIST ? .success : Outcome(errno: errno, call: "mkdir")
    }

    static func remove(_ path: String) -> Outcome {
        unlink(path) == 0 ? .success : Outcome(errno: errno, call: "unlink")
    }

    /// The whole file, or nil when it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
}
