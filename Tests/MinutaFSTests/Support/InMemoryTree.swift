import FileTreeInterface
import Foundation
import MinutaFS
import Synchronization

/// A `FileTree` held in memory, laid out like the Minuta store's view, that records every change the
/// mount asks of it, so tests can check what reached the tree (and what did not).
final class InMemoryTree: FileTree {
    /// A change the mount asked for.
    enum Call: Hashable, CustomStringConvertible {
        case write(String, [UInt8])
        case removeFile(String)
        case renameFile(String, String)
        case makeDirectory(String)
        case removeDirectory(String)

        var paths: [String] {
            switch self {
            case .write(let path, _), .removeFile(let path), .makeDirectory(let path), .removeDirectory(let path): [path]
            case .renameFile(let source, let destination): [source, destination]
            }
        }

        var description: String {
            switch self {
            case .write(let path, let bytes): "write(\(path), \(bytes.count) bytes: \(String(decoding: bytes.prefix(60), as: UTF8.self).debugDescription))"
            case .removeFile(let path): "removeFile(\(path))"
            case .renameFile(let source, let destination): "renameFile(\(source) -> \(destination))"
            case .makeDirectory(let path): "makeDirectory(\(path))"
            case .removeDirectory(let path): "removeDirectory(\(path))"
            }
        }
    }

    struct Node {
        var isDirectory: Bool
        var contents: [UInt8] = []
        var modificationTime: TreeTime
        var isWritable = true
        var extendedAttributes: [String: [UInt8]] = [:]
    }

    private struct State {
        var nodes: [String: Node] = [:]
        var calls: [Call] = []
        /// What the mount said of each save's program (`write(_:toPath:origin:)`), in order.
        var origins: [(path: String, origin: SaveOrigin)] = []
        var changeHandler: (@Sendable (TreeChange) -> Void)?
        /// Re-lays out JSON written to it (as the real store does): tests that the mount shows the tree's bytes.
        var normalizesJSON = false
        /// What `maximumFileSize(atPath:)` answers (the protocol's default when nil).
        var maximumFileSize: Int?
        /// The paths `didRefuseOversizedWrite(toPath:)` was told of.
        var oversizedWrites: [String] = []
        /// Run once, outside the lock, when the attributes of the path are next asked for.
        var attributesHooks: [String: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    init() {
        state.withLock { $0.nodes["/"] = Node(isDirectory: true, modificationTime: TreeTime(seconds: 1_700_000_000)) }
    }

    // MARK: Setting up and inspecting

    /// A tree like the real store's: tags, one record, an image, and the read-only status view.
    static func sample() -> InMemoryTree {
        let tree = InMemoryTree()
        tree.put(directory: "/records")
        tree.put(directory: "/records/2024")
        tree.put(directory: "/records/2024/01")
        tree.put(directory: "/.minutafs")
        tree.put(file: "/tags.json", Self.tags)
        tree.put(file: Self.recordPath, Self.record)
        tree.put(file: Self.imagePath, Self.image)
        tree.put(file: "/.minutafs/status", "store: /tmp/store\npending writes: 0\n", isWritable: false)
        tree.setExtendedAttribute("user.minutafs.id", Array(Self.recordID.utf8), ofPath: Self.recordPath)
        return tree
    }

    static let recordID = "5F1C4A2E-0B6D-4C8E-9A3F-2D7B1E6C8A90"
    static let recordPath = "/records/2024/01/2024-01-15_093000.json"
    static let imagePath = "/records/2024/01/5F1C4A2E-0B6D-4C8E-9A3F-2D7B1E6C8A90_0.jpg"
    static let record = """
        {
          "id": "5F1C4A2E-0B6D-4C8E-9A3F-2D7B1E6C8A90",
          "startTime": "2024-01-15T09:30:00Z",
          "endTime": "2024-01-15T11:00:00Z",
          "tagId": "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D",
          "comment": "planning the sprint",
          "images": [
            "5F1C4A2E-0B6D-4C8E-9A3F-2D7B1E6C8A90_0.jpg"
          ]
        }

        """
    static let tags = """
        {
          "tags": [
            {
              "id": "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D",
              "name": "Work",
              "color": "#3366FF",
              "createdAt": "2023-12-01T08:00:00Z",
              "isArchived": false
            }
          ]
        }

        """
    static let image: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) } + [0xFF, 0xD9]

    func put(directory path: String) {
        state.withLock { $0.nodes[path] = Node(isDirectory: true, modificationTime: TreeTime(seconds: 1_700_000_000)) }
    }

    func put(file path: String, _ text: String, isWritable: Bool = true) {
        put(file: path, Array(text.utf8), isWritable: isWritable)
    }

    func put(file path: String, _ contents: [UInt8], isWritable: Bool = true) {
        state.withLock { state in
            state.nodes[path] = Node(isDirectory: false, contents: contents, modificationTime: Self.now(), isWritable: isWritable)
        }
    }

    func setExtendedAttribute(_ name: String, _ value: [UInt8], ofPath path: String) {
        state.withLock { $0.nodes[path]?.extendedAttributes[name] = value }
    }

    /// Changes a file as a sync tool would, behind the mount's back, and reports it like the real store.
    func changeUnderneath(file path: String, to text: String) {
        put(file: path, text)
        reportChange([path])
    }

    /// Calls the change handler, as the real store does when a sync tool changed files.
    func reportChange(_ paths: [String]) {
        let handler = state.withLock { $0.changeHandler }
        handler?(TreeChange(paths: paths))
    }

    func setNormalizesJSON(_ normalizes: Bool) {
        state.withLock { $0.normalizesJSON = normalizes }
    }

    func setMaximumFileSize(_ size: Int) {
        state.withLock { $0.maximumFileSize = size }
    }

    /// Runs `action` the next time the mount asks for the attributes of `path`, before answering: lets a
    /// test put another request (a rename) between the mount's look at its own state and the tree's answer.
    func whenAskedForAttributes(ofPath path: String, run action: @escaping @Sendable () -> Void) {
        state.withLock { $0.attributesHooks[path] = action }
    }

    var oversizedWrites: [String] {
        state.withLock { $0.oversizedWrites }
    }

    var calls: [Call] {
        state.withLock { $0.calls }
    }

    func resetCalls() {
        state.withLock { $0.calls = [] }
    }

    func text(at path: String) -> String? {
        state.withLock { $0.nodes[path].map { String(decoding: $0.contents, as: UTF8.self) } }
    }

    func bytes(at path: String) -> [UInt8]? {
        state.withLock { $0.nodes[path]?.contents }
    }

    func exists(_ path: String) -> Bool {
        state.withLock { $0.nodes[path] != nil }
    }

    var hasChangeHandler: Bool {
        state.withLock { $0.changeHandler != nil }
    }

    // MARK: FileTree

    /// As the store's view: reads of `.minutafs/` judge no save.
    func savesDependOnReads(ofPath path: String) -> Bool {
        !path.hasPrefix("/.minutafs/")
    }

    func entries(inDirectory path: String) throws(TreeError) -> [TreeEntry] {
        try state.withLock { state throws(TreeError) in
            guard let node = state.nodes[path] else { throw .notFound }
            guard node.isDirectory else { throw .notDirectory }
            return state.nodes
                .filter { Self.parent(of: $0.key) == path && $0.key != "/" }
                .map { TreeEntry(name: Self.name(of: $0.key), isDirectory: $0.value.isDirectory) }
                .sorted { $0.name < $1.name }
        }
    }

    func attributes(ofPath path: String) throws(TreeError) -> TreeAttributes {
        if let hook = state.withLock({ $0.attributesHooks.removeValue(forKey: path) }) { hook() }
        return try state.withLock { state throws(TreeError) in
            guard let node = state.nodes[path] else { throw .notFound }
            return TreeAttributes(
                isDirectory: node.isDirectory, size: node.contents.count, modificationTime: node.modificationTime,
                isWritable: node.isWritable)
        }
    }

    func contents(ofPath path: String) throws(TreeError) -> [UInt8] {
        try state.withLock { state throws(TreeError) in
            guard let node = state.nodes[path] else { throw .notFound }
            guard !node.isDirectory else { throw .isDirectory }
            return node.contents
        }
    }

    /// Like the real store: `tags.json` at the top; JSON files (records) and images named after a record
    /// below `/records`. Swap, backup and temporary names (`.x.swp`, `x.json~`, `4913`, `sedAbC123`,
    /// `.x.json.AbC123`, `tmpk3j2`) are not accepted.
    func accepts(fileNamed name: String, inDirectory path: String) -> Bool {
        if path == "/" { return name == "tags.json" }
        guard path.hasPrefix("/records/") else { return false }
        let jsonName = /[^.#~][^\/]*\.json/
        let imageName = /[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}_\d+\.(jpg|jpeg|png|heic|gif)/
        return name.wholeMatch(of: jsonName) != nil || name.wholeMatch(of: imageName) != nil
    }

    /// Like the store's held names: `*.txt` below `/records` is kept by the mount while written and given
    /// to the tree if it is still there a while after its last close.
    func settles(fileNamed name: String, inDirectory path: String) -> Bool {
        path.hasPrefix("/records/") && name.hasSuffix(".txt")
    }

    /// Like the store: a JSON file (a record, `tags.json`) is not saved empty.
    func savesEmptyFile(atPath path: String) -> Bool {
        !path.hasSuffix(".json")
    }

    /// The origins of the saves so far (see `write(_:toPath:origin:)`).
    var origins: [(path: String, origin: SaveOrigin)] {
        state.withLock { $0.origins }
    }

    func write(_ contents: [UInt8], toPath path: String, origin: SaveOrigin) throws(TreeError) {
        state.withLock { $0.origins.append((path, origin)) }
        try write(contents, toPath: path)
    }

    func write(_ contents: [UInt8], toPath path: String) throws(TreeError) {
        let handler = try state.withLock { state throws(TreeError) -> (@Sendable (TreeChange) -> Void)? in
            state.calls.append(.write(path, contents))
            guard let parent = state.nodes[Self.parent(of: path)], parent.isDirectory else { throw .notFound }
            if let existing = state.nodes[path] {
                if existing.isDirectory { throw .isDirectory }
                if !existing.isWritable { throw .readOnly }
            }
            var stored = contents
            if path.hasSuffix(".json") {
                guard let object = try? JSONSerialization.jsonObject(with: Data(contents)) else {
                    throw .invalidContent("\(path): not JSON")
                }
                if state.normalizesJSON,
                    let normalized = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
                {
                    stored = Array(normalized) + [0x0A]
                }
            }
            state.nodes[path] = Node(
                isDirectory: false, contents: stored, modificationTime: Self.now(),
                extendedAttributes: state.nodes[path]?.extendedAttributes ?? [:])
            return stored == contents ? nil : state.changeHandler
        }
        handler?(TreeChange(paths: [path]))
    }

    /// A JSON file's `id`, as the store's record files have (any case is the same).
    func identity(ofContents contents: [UInt8], atPath path: String) -> String? {
        guard path.hasSuffix(".json"), let object = try? JSONSerialization.jsonObject(with: Data(contents)) as? [String: Any],
              let id = object["id"] as? String else { return nil }
        return id.uppercased()
    }

    func removeFile(atPath path: String) throws(TreeError) {
        try state.withLock { state throws(TreeError) in
            state.calls.append(.removeFile(path))
            guard let node = state.nodes[path] else { throw .notFound }
            if node.isDirectory { throw .isDirectory }
            if !node.isWritable { throw .readOnly }
            state.nodes[path] = nil
        }
    }

    func renameFile(from source: String, to destination: String) throws(TreeError) {
        try state.withLock { state throws(TreeError) in
            state.calls.append(.renameFile(source, destination))
            guard let node = state.nodes[source] else { throw .notFound }
            if node.isDirectory || state.nodes[destination]?.isDirectory == true { throw .isDirectory }
            guard state.nodes[Self.parent(of: destination)]?.isDirectory == true else { throw .notFound }
            state.nodes[source] = nil
            state.nodes[destination] = node
        }
    }

    func makeDirectory(atPath path: String) throws(TreeError) {
        try state.withLock { state throws(TreeError) in
            state.calls.append(.makeDirectory(path))
            guard state.nodes[path] == nil else { throw .alreadyExists }
            guard state.nodes[Self.parent(of: path)]?.isDirectory == true else { throw .notFound }
            state.nodes[path] = Node(isDirectory: true, modificationTime: Self.now())
        }
    }

    func removeDirectory(atPath path: String) throws(TreeError) {
        try state.withLock { state throws(TreeError) in
            state.calls.append(.removeDirectory(path))
            guard let node = state.nodes[path] else { throw .notFound }
            guard node.isDirectory else { throw .notDirectory }
            if state.nodes.keys.contains(where: { Self.parent(of: $0) == path && $0 != "/" }) { throw .notEmpty }
            state.nodes[path] = nil
        }
    }

    func extendedAttributes(ofPath path: String) -> [String: [UInt8]] {
        state.withLock { $0.nodes[path]?.extendedAttributes ?? [:] }
    }

    func maximumFileSize(atPath path: String) -> Int {
        state.withLock { $0.maximumFileSize } ?? 1 << 30
    }

    func didRefuseOversizedWrite(toPath path: String) {
        state.withLock { $0.oversizedWrites.append(path) }
    }

    func setChangeHandler(_ handler: @escaping @Sendable (TreeChange) -> Void) {
        state.withLock { $0.changeHandler = handler }
    }

    // MARK: Paths

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func name(of path: String) -> String {
        String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
    }

    private static func now() -> TreeTime {
        let interval = Date().timeIntervalSince1970
        return TreeTime(seconds: Int64(interval), nanoseconds: Int32((interval - interval.rounded(.down)) * 1e9))
    }
}
