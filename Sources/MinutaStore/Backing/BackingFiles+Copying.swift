import AutomergeKit
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Whole-file copies and new files for the migration's backup, image copies and the export.
extension BackingFiles {
    /// Copies a regular file to a path that must not exist yet, with the source's permissions,
    /// flushed to disk. A partial copy is removed.
    package static func copyFile(from source: String, to destination: String) throws(StoreError) {
        let bytes = try read(source, followingSymbolicLinks: true)
        var info = stat()
        let mode = stat(source, &info) == 0 ? info.st_mode & 0o777 : 0o644
        try writeNewFile(bytes, to: destination, permissions: mode)
    }

    /// Creates a file that must not exist yet and writes `bytes` to it, flushed to disk. A partial
    /// file is removed.
    package static func writeNewFile(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(StoreError) {
        let descriptor: FileDescriptor
        do { descriptor = try openDescriptor(path, .writeOnly, options: [.create, .exclusiveCreate, .noFollow], permissions: permissions) } catch {
            throw .system(file: path, operation: "create", errno: error)
        }
        let failure = finishWriting(bytes, to: descriptor, path: path)
        if let failure {
            unlink(path)
            throw failure
        }
    }

    /// Removes `path` and everything in it, as far as it can; symbolic links are removed, never
    /// followed. For folders this program made itself (a failed export's temporary folder).
    /// Names that are not UTF-8 are removed too: they are reached by their bytes.
    package static func removeTree(_ path: String) {
        removeTree(bytes: Array(path.utf8))
    }

    private static func removeTree(bytes path: [UInt8]) {
        let isDirectory = withCString(path) { name in
            var info = stat()
            return lstat(name, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
        } ?? false
        if isDirectory, let names = try? entryNames(path) {
            for name in names { removeTree(bytes: path + [UInt8(ascii: "/")] + name) }
        }
        _ = withCString(path) { name in isDirectory ? rmdir(name) : unlink(name) }
    }

    /// The absolute form of `path`, with `.` and `..` resolved through the real folders when
    /// they exist (symbolic links followed), lexically otherwise.
    package static func absolutePath(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        if realpath(path, &buffer) != nil {
            return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        var base = ""
        if !path.hasPrefix("/"), getcwd(&buffer, buffer.count) != nil {
            base = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        var parts: [Substring] = []
        for part in (base + "/" + path).split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        let parent = "/" + parts.dropLast().joined(separator: "/")
        if parts.count > 1, realpath(parent, &buffer) != nil {
            let real = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return (real == "/" ? "" : real) + "/" + (parts.last.map(String.init) ?? "")
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Whether `path` is `folder` or inside it (both absolute, resolved).
    package static func isPath(_ path: String, inside folder: String) -> Bool {
        path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
    }
}
