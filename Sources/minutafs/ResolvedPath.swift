import Glibc

/// Where a path the user gave really leads, for a command that decides from it whether a store is
/// in use (SPEC 5a: one writer per store): relative paths, `.` and `..`, and symbolic links (the
/// store folder's, a folder's on the way, or a link at the name itself, dangling or not) are
/// resolved, and a file that does not exist yet is placed in its folder's real path.
enum ResolvedPath {
    /// Links followed before giving up on a loop (the kernel's own limit is 40).
    private static let linkLimit = 40

    /// The absolute path, free of symbolic links, that writing to `path` would write; where not even
    /// the folder exists, the path made absolute with `.` and `..` removed lexically.
    static func of(_ path: String) -> String {
        var current = path
        for _ in 0..<linkLimit {
            if let real = realPath(current) { return real }
            // Missing, or a link that leads nowhere: the folder is resolved, then the name.
            let folder = parent(of: current), name = lastComponent(of: current)
            guard let target = linkTarget(current) else {
                guard name != "." && name != "..", let realFolder = realPath(folder) else { return lexicallyAbsolute(current) }
                return (realFolder == "/" ? "" : realFolder) + "/" + name
            }
            current = target.hasPrefix("/") ? target : folder + "/" + target
        }
        return lexicallyAbsolute(current)
    }

    private static func realPath(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &buffer) != nil else { return nil }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The target of the symbolic link at `path`, or nil when there is none.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    private static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    private static func lexicallyAbsolute(_ path: String) -> String {
        var base = ""
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            if getcwd(&buffer, buffer.count) != nil {
                base = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        var parts: [Substring] = []
        for part in (base + "/" + path).split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
