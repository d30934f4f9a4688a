import Foundation
import Glibc
import MinutaStore

/// Where a mount keeps what lives outside the store: its state (the journal of record moves between
/// months, the moves it remembers, a background mount's log) and its cache of rendered month views.
///
/// The XDG folders, else the home folder's `.local/state/minutafs` and `.cache/minutafs`. A user
/// without a home (`nobody`, whose HOME is `/nonexistent`, mounting through fstab's `setuid=`) gets
/// `$XDG_RUNTIME_DIR/minutafs/` when that folder is the user's own, else `/var/tmp/minutafs-UID/`
/// (made private to the user, and refused when someone else owns it), and a ``notice`` saying so.
struct MountFolders: Equatable {
    /// The state folder, or nil when there is none (then moves are not journaled).
    var state: String?
    /// The cache folder, or nil (then every first read of a month renders it).
    var cache: String?
    /// One line for the log when the folders are not the usual ones, or missing: where and why.
    var notice: String?

    /// The folders of the user this process runs as, the state folder made.
    static func current() -> MountFolders {
        var folders = resolve(environment: ProcessInfo.processInfo.environment, user: geteuid())
        if let state = folders.state {
            do throws(StoreError) {
                try BackingFiles.makeDirectories(state)
            } catch {
                folders.notice = "\(error.description): record moves between months are not journaled and a "
                    + "background mount's log is lost (set XDG_STATE_HOME to a folder you may write)"
                folders.state = nil
            }
        }
        return folders
    }

    static func resolve(environment: [String: String], user: uid_t) -> MountFolders {
        func absolute(_ name: String) -> String? {
            guard let value = environment[name], value.hasPrefix("/") else { return nil }
            return value
        }
        let home = absolute("HOME").flatMap { isFolder($0) ? $0 : nil }
        var folders = MountFolders(
            state: absolute("XDG_STATE_HOME").map { $0 + "/minutafs" } ?? home.map { $0 + "/.local/state/minutafs" },
            cache: absolute("XDG_CACHE_HOME").map { $0 + "/minutafs" } ?? home.map { $0 + "/.cache/minutafs" })
        guard folders.state == nil || folders.cache == nil else { return folders }
        let homeText = environment["HOME"].map { "HOME (\($0)) is not a folder" } ?? "HOME is not set"
        let runtime = absolute("XDG_RUNTIME_DIR").flatMap { isOwnFolder($0, user: user) ? $0 + "/minutafs" : nil }
        let shared = "/var/tmp/minutafs-\(user)"
        guard let fallback = runtime ?? (makeOwnFolder(shared, user: user) ? shared : nil) else {
            folders.notice = "\(homeText) and \(shared) is not a private folder of this user: record moves between months "
                + "are not journaled and a background mount's log is lost (set XDG_STATE_HOME)"
            return folders
        }
        folders.state = folders.state ?? fallback + "/state"
        folders.cache = folders.cache ?? fallback + "/cache"
        folders.notice = "\(homeText): the mount keeps its state in \(folders.state ?? fallback) (set XDG_STATE_HOME to choose another folder)"
        return folders
    }

    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `path` is a folder (not a link to one) owned by `user` that no one else may write.
    private static func isOwnFolder(_ path: String, user: uid_t) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR && status.st_uid == user
            && status.st_mode & 0o022 == 0
    }

    /// Makes `path` private to `user` (0700) unless it exists; true when it is then `user`'s own folder.
    private static func makeOwnFolder(_ path: String, user: uid_t) -> Bool {
        if mkdir(path, 0o700) != 0 && errno != EEXIST { return false }
        return isOwnFolder(path, user: user)
    }
}
