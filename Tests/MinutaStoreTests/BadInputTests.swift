import FileTreeInterface
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// Every bad write of the shared table (`BadInput.all`), through `StoreView.write` as the mount
/// calls it: refused with a reason, recorded for `.minutafs/errors`, and the backing folder byte
/// for byte as it was (SPEC section 4).
struct BadInputTests {
    static let january = Month(year: 2024, month: 1)!

    /// The path a case writes to, in the tree's terms, and what the file shows before.
    static func target(of input: BadInput, in tree: StoreView) throws -> (path: String, current: [UInt8]) {
        switch input.target {
        case .tags:
            return ("/tags.json", try tree.contents(ofPath: "/tags.json"))
        case .record, .billableRecord:
            let id = input.target == .record ? BadInput.recordID : BadInput.billableRecordID
            let file = try #require(try tree.store.recordFiles(in: january).first { $0.id == id })
            return ("/records/2024/01/" + file.name, file.contents)
        }
    }

    @Test("a bad write is refused with its reason and changes no byte of the store", arguments: BadInput.all)
    func refused(input: BadInput) throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let before = try folderSnapshot(path)
            let tree = StoreView(store: try Store(folder: FilePath(path), timeZone: .utc))
            let (file, current) = try Self.target(of: input, in: tree)
            let bytes = input.bytes(String(decoding: current, as: UTF8.self))
            #expect(bytes != current)
            do throws(TreeError) {
                try tree.write(bytes, toPath: file)
                Issue.record("\(input.name): accepted")
            } catch {
                // What the program's close gets: EINVAL, with the store's reason for the log.
                #expect(error.code == .invalidArgument, "\(input.name): \(error) is not a refusal of the content")
                #expect(error.reason?.contains(input.reason) == true, "\(input.name): \(error)")
            }
            #expect(tree.store.rejectionLog.last?.contains(input.reason) == true, "\(tree.store.rejectionLog)")
            #expect(try tree.contents(ofPath: file) == current)
            #expect(try folderSnapshot(path) == before)
        }
    }

    /// 100 MiB written to a record: refused before it is parsed (more than the 16 MiB a record or
    /// tags file may hold), so the store never holds it twice.
    @Test("a 100 MiB record or tags file is refused as too large, and nothing changes")
    func hundredMebibytes() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let before = try folderSnapshot(path)
            let tree = StoreView(store: try Store(folder: FilePath(path), timeZone: .utc))
            var huge = Array(#"{"comment": ""#.utf8)
            huge += [UInt8](repeating: UInt8(ascii: "a"), count: 100 << 20)
            huge += Array(#""}"#.utf8)
            for file in ["/records/2024/01/" + BadInput.recordName, "/tags.json"] {
                let refusal = StoreError.rejected(file: String(file.dropFirst()), line: nil, column: nil, reason: .tooLarge(limit: Store.maximumJSONFileSize))
                #expect(throws: TreeError(.fileTooLarge, reason: refusal.description)) { try tree.write(huge, toPath: file) }
            }
            #expect(tree.store.rejectionLog.last?.contains("larger than 16 MiB") == true)
            #expect(tree.store.rejectedFiles.isEmpty)
            #expect(try folderSnapshot(path) == before)
        }
    }
}
