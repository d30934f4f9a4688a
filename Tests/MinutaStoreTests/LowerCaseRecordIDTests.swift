import AutomergeKit
import Foundation
import MinutaMigration
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// A record id stored in lower case (a legacy file written by hand or by another tool) is kept as
/// stored (SPEC 1), and the store still finds, edits and exports that record by it.
struct LowerCaseRecordIDTests {
    static let id = "abcdef01-2345-4678-9abc-def012345678"
    static let january = Month(year: 2024, month: 1)!

    /// A legacy store with one record whose id is lower-case, migrated through the library.
    static func migratedStore(in folder: String) throws -> String {
        let store = folder + "/store"
        try FileManager.default.createDirectory(atPath: store + "/records/2024/01", withIntermediateDirectories: true)
        try Data("{\"tags\": []}\n".utf8).write(to: URL(fileURLWithPath: store + "/tags.json"))
        let record = "{\"id\": \"\(id)\", \"startTime\": \"2024-01-15T09:30:00Z\", \"endTime\": \"2024-01-15T10:30:00Z\", \"comment\": \"first\"}\n"
        try Data(record.utf8).write(to: URL(fileURLWithPath: store + "/records/2024/01/a.json"))
        let contents = try LegacyStoreReader.read(store)
        #expect(contents.failures.isEmpty, "\(contents.failures)")
        let migration = try Migration.prepare(storePath: store, contents: contents, timeZone: .utc)
        try migration.write(includingTags: true)
        return store
    }

    @Test("the month document's key is the id as the legacy file has it")
    func keyAsStored() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.migratedStore(in: folder)
            let document = try Document.load(Fixtures.contents(ofFileAtPath: store + "/records/2024/01.automerge"))
            #expect(document.keys(of: .root) == [Self.id])
        }
    }

    @Test("the mount shows, edits and exports a record under a lower-case key without a second copy")
    func mountAndExport() throws {
        try withTemporaryDirectory { folder in
            let path = try Self.migratedStore(in: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let file = try #require(try store.recordFiles(in: Self.january).first)
            let text = String(decoding: file.contents, as: UTF8.self)
            #expect(text.contains("\"id\": \"\(Self.id)\""), "\(text)")
            _ = try store.writeRecordFile(Array(text.replacingOccurrences(of: "first", with: "edited").utf8), named: file.name, in: Self.january)
            // The id in any case names the same record.
            let upper = text.replacingOccurrences(of: "first", with: "edited again").replacingOccurrences(of: Self.id, with: Self.id.uppercased())
            _ = try store.writeRecordFile(Array(upper.utf8), named: file.name, in: Self.january)
            let document = try Document.load(Fixtures.contents(ofFileAtPath: path + "/records/2024/01.automerge"))
            #expect(document.keys(of: .root) == [Self.id])
            #expect(try store.recordFiles(in: Self.january).count == 1)

            let exported = folder + "/exported"
            _ = try LegacyExporter.export(storePath: path, to: exported, timeZone: .utc)
            let names = try FileManager.default.contentsOfDirectory(atPath: exported + "/records/2024/01")
            #expect(names.count == 1)
            let json = try String(contentsOfFile: exported + "/records/2024/01/" + (names.first ?? ""), encoding: .utf8)
            #expect(json.contains("\"id\": \"\(Self.id)\"") && json.contains("edited again"), "\(json)")
        }
    }
}
