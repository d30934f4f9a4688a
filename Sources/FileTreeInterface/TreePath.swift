/// Paths inside a mounted tree: `/` for the root, `/a/b` below it (no trailing slash, no `.` or `..`).
///
/// The kernel hands the mount one name at a time, relative to a directory it already knows, so paths
/// are only ever built by `appending` a name the kernel checked (no `/`, not `.` or `..`).
public enum TreePath {
    public static let root = "/"

    public static func appending(_ name: String, to directory: String) -> String {
        directory == root ? root + name : directory + "/" + name
    }

    /// The directory holding `path`; the root for the root itself.
    public static func parent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.utf8.startIndex else {
            return root
        }
        return String(path[..<slash])
    }

    /// The last component of `path`; empty for the root.
    public static func name(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// Whether `path` is `directory` itself or lies somewhere below it.
    public static func isWithin(_ path: String, directory: String) -> Bool {
        if directory == root || path.utf8.elementsEqual(directory.utf8) { return true }
        return path.utf8.count > directory.utf8.count
            && path.utf8.starts(with: directory.utf8)
            && path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: directory.utf8.count)] == UInt8(ascii: "/")
    }
}
