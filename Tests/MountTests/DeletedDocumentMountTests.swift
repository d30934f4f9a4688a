import Foundation
import Testing
import TestSupport

/// A month document deleted in the backing folder while mounted, through the
/// real mount: status and errors say so, the records stay shown read-only, an edit writes it back.
@Suite(.serialized)
struct DeletedDocumentMountTests {
    @Test("deleted while mounted: reported, shown read-only; a saved edit writes the month back")
    func deletedWhileMounted() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: mounted.january).filter { $0.hasSuffix(".json") }.sorted()
            let record = mounted.january + "/" + (try #require(names.first))
            let before = try mounted.text(record)
            let document = mounted.store + "/records/2024/01.automerge"
            try FileManager.default.removeItem(atPath: document)

            let status = mounted.mountPoint + "/.minutafs/status"
            let reported = eventually(within: 10) { (try? mounted.text(status))?.contains("deleted documents: records/2024/01.automerge") ?? false }
            #expect(reported, "\((try? mounted.text(status)) ?? "")")
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/errors").contains("records/2024/01.automerge was deleted from the folder while mounted"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: mounted.january).filter { $0.hasSuffix(".json") }.sorted() == names)
            #expect(try mounted.text(record) == before)
            let mode = (try FileManager.default.attributesOfItem(atPath: record)[.posixPermissions] as? Int) ?? -1
            #expect(mode & 0o222 == 0, "mode \(String(mode, radix: 8))")

            let edit = try Shell.run("sed -i 's/\"comment\": \"/\"comment\": \"written back: /' '\(record)'")
            #expect(edit.status == 0, "\(edit.output)")
            #expect(FileManager.default.fileExists(atPath: document))
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/errors").contains("records/2024/01.automerge was written back to the folder"))
            let back = eventually(within: 10) { (try? mounted.text(status))?.contains("deleted documents: none") ?? false }
            #expect(back)
            #expect(mounted.unmount() == 0)
        }
    }
}
