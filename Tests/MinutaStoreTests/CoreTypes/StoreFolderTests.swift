import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// The store's boundary names its folder as a `FilePath` (docs/ARCHITECTURE.md, "The store's boundary"):
/// a relative folder is taken from the working directory, trailing slashes are dropped, a path that is
/// not a folder is refused naming it, and any valid name works (spaces, non-ASCII, a 255-byte component).
struct StoreFolderTests {
    static let january = Month(year: 2024, month: 1)!
    static let plainName = "2024-01-03_034234.json"

    /// `absolute` spelled relative to this process's working directory: `..` up to `/`, then the rest
    /// (no `chdir`: tests run at once in one process).
    static func relativeSpelling(of absolute: String) -> String {
        let levels = FileManager.default.currentDirectoryPath.split(separator: "/").count
        return String(repeating: "../", count: levels) + absolute.drop { $0 == "/" }
    }

    @Test("a relative folder opens the store at that folder made absolute from the working directory")
    func relativeFolder() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let relative = FilePath(Self.relativeSpelling(of: path))
            #expect(relative.isRelative)
            let store = try Store(folder: relative, timeZone: .utc)
            #expect(store.folder.isAbsolute)
            #expect(store.folder == FilePath(FileManager.default.currentDirectoryPath).pushing(relative))
            #expect(store.folder.lexicallyNormalized() == FilePath(path))
            // The same records as the store opened by its absolute path.
            let direct = try Store(folder: FilePath(path), timeZone: .utc)
            #expect(try store.recordFiles(in: Self.january).map(\.name) == direct.recordFiles(in: Self.january).map(\.name))
            #expect(try !store.recordFiles(in: Self.january).isEmpty)
        }
    }

    @Test("trailing slashes are dropped from the folder", arguments: ["/", "//", "///"])
    func trailingSlashes(suffix: String) throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            #expect(try Store(folder: FilePath(path + suffix), timeZone: .utc).folder.string == path)
            let relative = FilePath(Self.relativeSpelling(of: path) + suffix)
            #expect(try !Store(folder: relative, timeZone: .utc).folder.string.hasSuffix("/"))
        }
    }

    @Test("a path that is not a folder is refused with notFound naming it, absolute")
    func notAFolder() throws {
        try withTemporaryDirectory { folder in
            let missing = folder + "/missing"
            #expect(throws: StoreError.notFound(missing)) { try Store(folder: FilePath(missing + "/"), timeZone: .utc) }
            let file = folder + "/file"
            #expect(FileManager.default.createFile(atPath: file, contents: Data("not a store".utf8)))
            #expect(throws: StoreError.notFound(file)) { try Store(folder: FilePath(file), timeZone: .utc) }
            let relative = FilePath(Self.relativeSpelling(of: missing))
            let absolute = FilePath(FileManager.default.currentDirectoryPath).pushing(relative).string
            #expect(throws: StoreError.notFound(absolute)) { try Store(folder: relative, timeZone: .utc) }
        }
    }

    @Test("a folder named with spaces, non-ASCII letters, a leading ~ or a 255-byte component opens, reads and writes",
          arguments: ["My Minuta", "Zeiterfassung für Jürgen", "~minuta", String(repeating: "ü", count: 127) + "x"])
    func unusualNames(name: String) throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder, name: name)
            let store = try Store(folder: FilePath(folder).appending(name), timeZone: .utc)
            #expect(store.folder.string == path)
            #expect(store.folder.lastComponent?.string == name)
            let file = try #require(try store.recordFile(named: Self.plainName, in: Self.january))
            let text = String(decoding: file.contents, as: UTF8.self)
            #expect(text.contains("17:05:39.638Z"))
            let changed = text.replacingOccurrences(of: "17:05:39.638Z", with: "18:00:00Z")
            _ = try store.writeRecordFile(Array(changed.utf8), named: Self.plainName, in: Self.january)
            // The write reached the document in that folder: a fresh store reads it from disk.
            let fresh = try Store(folder: FilePath(path), timeZone: .utc)
            let reread = try #require(try fresh.recordFile(named: Self.plainName, in: Self.january))
            #expect(String(decoding: reread.contents, as: UTF8.self).contains("18:00:00Z"))
        }
    }
}
