import Glibc

/// Replaces a file's contents so that readers and sync tools see either the old bytes or the new
/// ones, never a mix, and so that the new bytes survive a crash once `write` returns (SPEC §5).
///
/// The bytes go to a temporary file in the destination's folder, named
/// `.NAME.minutafs-<16 hex digits>.tmp`, which is flushed with `fsync`, renamed over the
/// destination, and then the folder is flushed too so the rename itself is durable. A temporary
/// file is removed again when any step before the rename fails.
enum AtomicFileWriter {
    /// The suffix of the temporary files, for code that must recognise and hide them.
    static let temporaryFileSuffix = ".tmp"
    /// The marker between the destination's name and the random part of a temporary file's name.
    static let temporaryFileMarker = ".minutafs-"

    /// Writes `bytes` to `path` atomically and durably.
    ///
    /// An existing destination keeps its permission bits; a new one gets `0666` less the umask. A
    /// destination that is a symbolic link has the file it points to replaced, not the link.
    ///
    /// - Throws: `SystemCallError` saying which step failed; the destination is then unchanged.
    static func write(_ bytes: [UInt8], toPath path: String) throws(SystemCallError) {
        let destination = resolvingSymbolicLink(path)
        let (folder, name) = split(destination)
        let (descriptor, temporaryPath) = try createTemporaryFile(in: folder, for: name)
        do {
            try fillAndClose(descriptor, with: bytes, permissionsFrom: destination)
        } catch {
            unlink(temporaryPath)
            throw error
        }
        guard rename(temporaryPath, destination) == 0 else {
            let code = errno
            unlink(temporaryPath)
            throw SystemCallError(action: "cannot replace the file", code: code)
        }
        try synchronizeFolder(folder)
    }

    private static func createTemporaryFile(in folder: String, for name: String) throws(SystemCallError) -> (Int32, String) {
        var attempts = 0
        while true {
            let random = String(UInt64.random(in: .min ... .max), radix: 16)
            let padded = String(repeating: "0", count: 16 - random.count) + random
            let temporaryPath = "\(folder)/.\(name)\(temporaryFileMarker)\(padded)\(temporaryFileSuffix)"
            let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 { return (descriptor, temporaryPath) }
            let code = errno
            attempts += 1
            guard code == EEXIST || code == EINTR, attempts < 100 else {
                throw SystemCallError(action: "cannot create a temporary file in \(folder)", code: code)
            }
        }
    }

    /// Writes all of `bytes`, gives the file the destination's permissions, flushes and closes it.
    private static func fillAndClose(_ descriptor: Int32, with bytes: [UInt8], permissionsFrom destination: String) throws(SystemCallError) {
        var closed = false
        defer { if !closed { close(descriptor) } }
        var existing = stat()
        if stat(destination, &existing) == 0, fchmod(descriptor, existing.st_mode & 0o7777) != 0 {
            throw SystemCallError(action: "cannot set the permissions of the new file", code: errno)
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if count >= 0 {
                written += count
            } else if errno != EINTR {
                throw SystemCallError(action: "cannot write", code: errno)
            }
        }
        guard fsync(descriptor) == 0 else { throw SystemCallError(action: "cannot flush to disk", code: errno) }
        closed = true
        guard close(descriptor) == 0 else { throw SystemCallError(action: "cannot write", code: errno) }
    }

    private static func synchronizeFolder(_ folder: String) throws(SystemCallError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemCallError(action: "cannot open the folder to flush it", code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw SystemCallError(action: "cannot flush the folder", code: errno) }
    }

    /// The path of the file a symbolic link at `path` points to, or `path` itself.
    private static func resolvingSymbolicLink(_ path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK,
              let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The folder part (`"."` when there is none) and the name part of `path`.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = path[..<slash]
        return (folder.isEmpty ? "/" : String(folder), String(path[path.index(after: slash)...]))
    }
}
