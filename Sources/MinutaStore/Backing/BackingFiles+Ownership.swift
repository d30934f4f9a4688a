#if canImport(Glibc)
import Glibc
#endif

/// Keeping a rewritten document's owner and group.
extension BackingFiles {
    /// Gives the open file `descriptor` (the temporary file that replaces `path`) the owner and
    /// group of the file at `path`, when that is a regular file owned by someone else. Run as root
    /// on a user's store (a system service, `sudo minutafs merge`), a rewritten document stays the
    /// user's, so the user's sync tool can still replace it.
    ///
    /// Best effort: a process that is not root may not give a file away (EPERM), and then the file
    /// is its own, as any file it writes; that is not a reason to fail the write.
    static func copyOwnership(from path: String, to descriptor: Int32) {
        var existing = stat()
        guard lstat(path, &existing) == 0, existing.st_mode & S_IFMT == S_IFREG else { return }
        guard existing.st_uid != geteuid() || existing.st_gid != getegid() else { return }
        _ = fchown(descriptor, existing.st_uid, existing.st_gid)
    }
}
