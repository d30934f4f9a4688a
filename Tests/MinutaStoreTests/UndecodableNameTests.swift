import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// A file whose name is not UTF-8 (written by an old tool or another system) in the synced folder.
struct UndecodableNameTests {
    @Test("a file whose name is not UTF-8 is not listed under a made-up name, and stays untouched by saves")
    func leftOutAndKept() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let month = try #require(Month(year: 2024, month: 2))
            try FileManager.default.createDirectory(atPath: path + "/records/2024/02", withIntermediateDirectories: true)
            let bytes: [UInt8] = Array((path + "/records/2024/02/").utf8) + [0x66, 0xFF, 0x2E, 0x6A, 0x70, 0x67, 0]
            let descriptor = bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
            }
            #expect(descriptor >= 0)
            close(descriptor)

            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let tree = StoreView(store: store)
            let names = try tree.entries(inDirectory: "/records/2024/02").map(\.name)
            #expect(!names.contains { $0.unicodeScalars.contains("\u{FFFD}") }, "\(names)")
            #expect(names.contains { $0.hasSuffix(".json") })
            let file = try #require(try store.recordFiles(in: month).first)
            let edited = String(decoding: file.contents, as: UTF8.self).replacingOccurrences(of: "\"images\"", with: "\"comment\": \"kept\",\n  \"images\"")
            _ = try store.writeRecordFile(Array(edited.utf8), named: file.name, in: month)
            let stillThere = bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { access($0, F_OK) }
            }
            #expect(stillThere == 0)
        }
    }

    @Test("the listing keeps a name that is not UTF-8 as its bytes, so a folder the program made and holds one is removed whole")
    func keptAsBytes() throws {
        try withTemporaryDirectory { folder in
            let tree = folder + "/export.partial"
            try FileManager.default.createDirectory(atPath: tree + "/records/2024", withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: tree + "/records/2024/01.json", contents: Data("{}".utf8)))
            let raw: [UInt8] = Array((tree + "/records/2024/").utf8) + [0x66, 0xFF, 0x2E, 0x6A, 0x73, 0x6F, 0x6E, 0]
            let descriptor = raw.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
            }
            try #require(descriptor >= 0)
            close(descriptor)

            let names = try BackingFiles.entryNames(Array((tree + "/records/2024").utf8))
            #expect(names.count == 2)
            #expect(names.contains([0x66, 0xFF, 0x2E, 0x6A, 0x73, 0x6F, 0x6E]), "the undecodable name is there, as its bytes")
            #expect(try BackingFiles.listDirectory(tree + "/records/2024") == ["01.json"], "and left out of what the store lists")
            BackingFiles.removeTree(tree)
            #expect(!FileManager.default.fileExists(atPath: tree), "removed whole, the undecodable name included")
        }
    }
}
