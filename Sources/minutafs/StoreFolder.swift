import Foundation
import Glibc
import MinutaStore

/// The folder a user named as a store, checked before it is opened, so that a wrong path gets an
/// answer that says what is wrong with it (README "If something goes wrong"): missing, a folder on
/// the way the user cannot enter, a file, or a folder that holds no store (a mistyped path, the sync
/// tool's own folder, an empty folder). `mount` can start a new store with `--create`.
enum StoreFolder {
    /// What a folder holds, as far as being a store goes.
    enum Contents: Equatable {
        /// `tags.automerge` or `records/` is there.
        case store
        /// Nothing, or only hidden names (a sync tool's `.stfolder`, `.dropbox`).
        case empty
        /// Files or folders, none of them a store's.
        case somethingElse
    }

    /// Stops the command unless `path` is an existing folder this user can enter and read.
    /// - Throws: `CommandFailure` naming `path` (and the folder on the way it cannot enter).
    static func checkFolder(_ path: String) throws(CommandFailure) {
        guard !path.isEmpty else { throw CommandFailure(path: "\"\"", cause: "an empty path; name the store folder (the one holding tags.automerge and records/)") }
        var status = stat()
        guard stat(path, &status) == 0 else {
            let error = errno
            if error == EACCES { throw permissionDenied(path) }
            if error == ENOENT || error == ENOTDIR { throw CommandFailure(path: path, cause: "no such file or folder") }
            throw CommandFailure(path: path, cause: String(cString: strerror(error)))
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw CommandFailure(path: path, cause: "not a folder; name the store folder (the one holding tags.automerge and records/)")
        }
        guard access(path, R_OK | X_OK) == 0 else { throw permissionDenied(path) }
    }

    /// What the folder at `path` (checked with `checkFolder`) holds.
    static func contents(of path: String) -> Contents {
        if FileManager.default.fileExists(atPath: path + "/" + DocumentName.tagsPath) || FileManager.default.fileExists(atPath: path + "/records") {
            return .store
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.allSatisfy { $0.hasPrefix(".") } ? .empty : .somethingElse
    }

    /// Stops a command that works on an existing store (`check`, `merge`, `log`, `report`, `mount`
    /// without `--create`) unless `path` is a folder holding one. `creating` is the hint for a folder
    /// that holds nothing: how to start a new store there, if the command can.
    static func checkExistingStore(_ path: String, creating hint: String? = nil) throws(CommandFailure) {
        try checkFolder(path)
        switch contents(of: path) {
        case .store:
            return
        case .empty:
            throw CommandFailure(path: path, cause: "not a Minuta store: expected tags.automerge or a records/ folder in it, and the folder is empty. "
                + "Check the path (the store is the folder the Minuta app syncs)" + (hint.map { "; to start a new, empty store here, \($0)" } ?? ""))
        case .somethingElse:
            throw CommandFailure(path: path, cause: "not a Minuta store: expected tags.automerge or a records/ folder in it. "
                + "Check the path (the store is the folder the Minuta app syncs, not its parent)")
        }
    }

    /// `minutafs mount --create`: makes `path` a new, empty store (a `records/` folder in it), creating
    /// the folder when it does not exist. A folder that already holds a store is left as it is; one
    /// holding anything else is refused, so a mistyped path never becomes a store among other files.
    static func create(_ path: String) throws(CommandFailure) {
        guard !path.isEmpty else { throw CommandFailure(path: "\"\"", cause: "an empty path; name the folder to start the new store in") }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            let error = errno
            if error == EACCES { throw permissionDenied(path) }
            throw CommandFailure(path: path, cause: "cannot create the store folder: \(String(cString: strerror(error)))")
        }
        try checkFolder(path)
        switch contents(of: path) {
        case .store:
            return
        case .somethingElse:
            throw CommandFailure(path: path, cause: "not empty and not a Minuta store; --create starts a new store only in a new or empty folder")
        case .empty:
            guard mkdir(path + "/records", 0o755) == 0 || errno == EEXIST else {
                let error = errno
                throw CommandFailure(path: path, cause: "cannot create records/ in it: \(String(cString: strerror(error)))")
            }
        }
    }

    /// "permission denied", naming the first folder on the way to `path` (or `path` itself) that this
    /// user cannot enter or read.
    static func permissionDenied(_ path: String) -> CommandFailure {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var current = ""
        for component in absolute.split(separator: "/") {
            current += "/" + component
            var status = stat()
            guard stat(current, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { break }
            let needed = current == absolute ? R_OK | X_OK : X_OK
            if access(current, needed) != 0 {
                let what = current == absolute ? "you cannot read the folder \(current)" : "you cannot enter the folder \(current)"
                return CommandFailure(path: path, cause: "permission denied: \(what) (owner uid \(status.st_uid), mode \(String(status.st_mode & 0o7777, radix: 8))); run minutafs as a user who can, or change its permissions")
            }
        }
        return CommandFailure(path: path, cause: "permission denied")
    }
}
