import Crypto
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// One minutafs writer per store per machine (SPEC 5a): the mount, `merge`, `migrate` and an
/// in-place `doc compact` hold this lock while they may write the store's documents, so two of them
/// never replace each other's saves.
///
/// The lock is `flock` on `STATE/lock-HASH` (HASH names the store's real path), in the user's local
/// state folder, never in the synced folder: a sync tool would copy it to other devices. The kernel
/// releases it when the holder exits, however it exits. The file says who holds it.
public final class StoreLock: Sendable {
    /// The open lock file; closing it releases the lock.
    private let descriptor: Int32
    public let path: String

    /// Takes the lock of the store at `storePath`, saying in the lock file what holds it (`purpose`,
    /// e.g. "mounted at /home/me/minuta").
    /// - Throws: ``StoreError/storeInUse(store:holder:)`` when another process holds it.
    public init(storePath: String, stateDirectory: String, purpose: String) throws(StoreError) {
        try BackingFiles.makeDirectories(stateDirectory)
        path = stateDirectory + "/lock-" + Self.key(for: storePath)
        var opened: Int32
        repeat { opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) } while opened < 0 && errno == EINTR
        guard opened >= 0 else { throw .system(file: path, operation: "open lock file", errno: Errno(rawValue: errno)) }
        var result: Int32
        repeat { result = flock(opened, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let code = errno
            let holder = (try? BackingFiles.read(path, limit: 4096)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            close(opened)
            if code == EWOULDBLOCK {
                let said = holder.split(separator: "\n").first.map(String.init) ?? ""
                throw .storeInUse(store: storePath, holder: said.isEmpty ? "another minutafs process" : said)
            }
            throw .system(file: path, operation: "lock", errno: Errno(rawValue: code))
        }
        descriptor = opened
        let text = Array("\(purpose) by process \(getpid())\n".utf8)
        if ftruncate(opened, 0) == 0 {
            // Only a description for the next one who asks; the lock holds without it.
            _ = text.withUnsafeBytes { pwrite(opened, $0.baseAddress, $0.count, 0) }
        }
    }

    deinit { close(descriptor) }

    /// Whether another process holds the lock of `storePath` now: what it said, or nil when free.
    public static func holder(storePath: String, stateDirectory: String) -> String? {
        do {
            _ = try StoreLock(storePath: storePath, stateDirectory: stateDirectory, purpose: "checked")
            return nil
        } catch {
            if case .storeInUse(_, let holder) = error { return holder }
            return nil
        }
    }

    /// The name a store's state files carry: the first 12 bytes of the SHA-256 of its real path, in hex.
    public static func fileKey(for storePath: String) -> String { key(for: storePath) }

    static func key(for storePath: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let real = realpath(storePath, &buffer) != nil
            ? String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self) : storePath
        return SHA256.hash(data: Array(real.utf8)).prefix(12).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
