import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// A month document deleted from the folder while held: its records stay shown,
/// read-only, status and errors say so; a saved edit writes the month back, and that is said too.
struct DeletedDocumentTests {
    static let january = Month(year: 2024, month: 1)!
    static let name = "2024-01-03_034234.json"

    func text(_ tree: StoreView, _ path: String) throws -> String {
        String(decoding: try tree.contents(ofPath: path), as: UTF8.self)
    }

    @Test("deleted while held: shown read-only and reported; an edit writes the month back and is reported")
    func deletedThenWrittenBack() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let tree = StoreView(store: store)
            let recordPath = "/records/2024/01/" + Self.name
            let shown = try store.recordFiles(in: Self.january).map(\.name)
            #expect(try tree.attributes(ofPath: recordPath).isWritable)
            #expect(store.noticeDeletedDocuments().isEmpty)

            try FileManager.default.removeItem(atPath: path + "/records/2024/01.automerge")
            #expect(store.noticeDeletedDocuments() == [Self.january])
            #expect(store.noticeDeletedDocuments().isEmpty, "reported once")
            #expect(try store.recordFiles(in: Self.january).map(\.name) == shown)
            #expect(try tree.entries(inDirectory: "/records/2024").contains { $0.name == "01" })
            #expect(try !tree.attributes(ofPath: recordPath).isWritable)
            let status = try text(tree, "/.minutafs/status")
            #expect(status.contains("deleted documents: records/2024/01.automerge"), "\(status)")
            let errors = try text(tree, "/.minutafs/errors")
            #expect(errors.contains("records/2024/01.automerge was deleted from the folder while mounted; its \(shown.count) record(s) are still shown, read-only"), "\(errors)")
            #expect(store.status().rejectedWrites == 0)

            let edited = try text(tree, recordPath).replacingOccurrences(of: "\"comment\": \"", with: "\"comment\": \"kept: ")
            try tree.write(Array(edited.utf8), toPath: recordPath)
            #expect(FileManager.default.fileExists(atPath: path + "/records/2024/01.automerge"))
            #expect(try tree.attributes(ofPath: recordPath).isWritable)
            #expect(try text(tree, "/.minutafs/status").contains("deleted documents: none"))
            #expect(try text(tree, "/.minutafs/errors").contains("records/2024/01.automerge was written back to the folder by a save of records/2024/01/\(Self.name)"))
            // Every record of the month is back on disk, not only the edited one.
            let reopened = try Store(folder: FilePath(path), timeZone: .utc)
            #expect(try reopened.recordFiles(in: Self.january).map(\.name) == shown)
            #expect(String(decoding: try #require(try reopened.recordFile(named: Self.name, in: Self.january)).contents, as: UTF8.self).contains("kept: "))
        }
    }
}
