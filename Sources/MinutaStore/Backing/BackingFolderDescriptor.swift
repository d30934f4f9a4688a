#if canImport(Glibc)
import Glibc
#endif

/// An open descriptor of the backing folder (read-only; it locks nothing), held for
/// the store's life, so that the folder the store was opened on can still be read once its path leads
/// elsewhere: `/proc/self/fd/N` names that folder wherever it was moved (SPEC 5b: a moved store keeps
/// showing what it holds, read-only).
final class BackingFolderDescriptor: Sendable {
    private let descriptor: Int32

    /// Opens the folder at `path`; nil when it cannot be opened.
    init?(path: String) {
        var opened: Int32
        repeat { opened = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } while opened < 0 && errno == EINTR
        guard opened >= 0 else { return nil }
        descriptor = opened
    }

    deinit { close(descriptor) }

    /// A path that leads to the folder wherever it is now (the kernel's link to the open folder).
    var path: String { "/proc/self/fd/\(descriptor)" }

    /// Where the folder is now: its path, or nil when it was deleted (or the kernel does not say).
    var currentPath: String? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_nlink > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let target = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.hasPrefix("/") && !target.hasSuffix(" (deleted)") ? target : nil
    }
}
