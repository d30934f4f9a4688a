import Foundation

/// The test fixtures in `Tests/Fixtures/` of this repository: the reference implementation's
/// documents (`automerge/`, with its README and MANIFEST), the sample stores (`stores/`) and the
/// fuzzing regressions (`fuzz/`). Nothing outside the repository is read, so a fresh clone tests
/// the same way on any machine (`FixtureRootTests` checks it).
///
/// Every accessor throws `FixtureError` when the fixtures are missing: a test that cannot find its
/// data fails, it is never skipped.
public enum Fixtures {
    /// The package's root folder, worked out from this file's place in `Tests/TestSupport/`.
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.standardizedFileURL.path
    }()

    /// `Tests/Fixtures`, the folder every fixture is in.
    public static let root: String = packageRoot + "/Tests/Fixtures"

    /// `Tests/Fixtures/FOLDER`, checked to exist.
    ///
    /// - Parameter folder: a folder inside `Tests/Fixtures`, `"automerge"` unless told.
    public static func directory(_ folder: String = "automerge") throws -> String {
        let path = URL(fileURLWithPath: root)
            .appendingPathComponent(folder)
            .standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FixtureError("no fixtures folder at \(path): Tests/Fixtures/\(folder) is missing from the repository")
        }
        return path
    }

    /// The full path of `name`, a path relative to `Tests/Fixtures/FOLDER` (`"types.json"`,
    /// `"corrupt/doubled.automerge"`), whether or not the file exists.
    public static func path(_ name: String, in folder: String = "automerge") throws -> String {
        try directory(folder) + "/" + name
    }

    /// Whether `name` exists in `Tests/Fixtures/FOLDER`.
    public static func exists(_ name: String, in folder: String = "automerge") throws -> Bool {
        try FileManager.default.fileExists(atPath: path(name, in: folder))
    }

    /// The names of the files directly in `Tests/Fixtures/FOLDER` (or in `subfolder` of it) whose
    /// names end in `.EXTENSION`, sorted; `"types.automerge"`, `"types.saved.automerge"`, ….
    public static func names(withExtension fileExtension: String, in folder: String = "automerge", subfolder: String? = nil) throws -> [String] {
        let base = try directory(folder)
        let listed = subfolder.map { base + "/" + $0 } ?? base
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: listed)
        } catch {
            throw FixtureError("cannot list \(listed): \(error)")
        }
        let prefix = subfolder.map { "\($0)/" } ?? ""
        return entries
            .filter { $0.hasSuffix("." + fileExtension) }
            .map { prefix + $0 }
            .sorted()
    }

    /// The bytes of fixture `name` (relative to `Tests/Fixtures/FOLDER`).
    public static func bytes(_ name: String, in folder: String = "automerge") throws -> [UInt8] {
        try contents(ofFileAtPath: path(name, in: folder))
    }

    /// The text of fixture `name`, which must be UTF-8.
    public static func text(_ name: String, in folder: String = "automerge") throws -> String {
        let data = try bytes(name, in: folder)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw FixtureError("fixture \(name) is not UTF-8")
        }
        return text
    }

    /// The bytes of any file, such as an output a test produced.
    public static func contents(ofFileAtPath path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FixtureError("cannot read \(path)")
        }
        return [UInt8](data)
    }

    /// The base names of the reference documents: every `NAME.automerge` directly in
    /// `Tests/Fixtures/automerge` with a `NAME.json` beside it (`"types"`, `"three-way.a"`,
    /// `"three-way.merged"`, …), sorted.
    public static func referenceDocumentNames() throws -> [String] {
        let documents = try names(withExtension: "automerge")
        let jsonFiles = Set(try names(withExtension: "json"))
        return documents
            .map { String($0.dropLast(".automerge".count)) }
            .filter { jsonFiles.contains($0 + ".json") }
    }
}

/// A fixture that is missing or unreadable.
public struct FixtureError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
