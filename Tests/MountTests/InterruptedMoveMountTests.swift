import AutomergeKit
import Foundation
@testable import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// `minutafs mount` finishes a record move an earlier mount was killed in the middle of: the record
/// was saved in its new month and is still in its old one; the mount shows it once, in the new month.
struct InterruptedMoveMountTests {
    @Test("a mount finishes the move a killed mount left half done, from the journal in XDG_STATE_HOME")
    func mountFinishesMove() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/store"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
            try Shell.run("chmod -R u+w '\(store)'")
            let state = folder + "/state"
            let id = "A0400CA0-E4B2-4E0E-B1DC-02BC9EAA0586"
            let may = try #require(Month(year: 2024, month: 5)), june = try #require(Month(year: 2024, month: 6))

            // A move whose first save (June) happened and whose second (May) did not.
            let mayBefore = try Fixtures.contents(ofFileAtPath: store + "/" + may.documentPath)
            let library = try Store(folder: FilePath(store), timeZone: .utc, stateDirectory: FilePath(state + "/minutafs"))
            let name = try #require(try library.recordFiles(in: may).first { $0.id == id }?.name)
            let text = String(decoding: try #require(try library.recordFile(named: name, in: may)).contents, as: UTF8.self)
            _ = try library.writeRecordFile(Array(text.replacingOccurrences(of: "2024-05-15T06:53:35.681Z", with: "2024-06-02T08:00:00Z")
                .replacingOccurrences(of: "2024-05-15T07:30:32.206Z", with: "2024-06-02T09:00:00Z").utf8), named: name, in: may)
            try Data(mayBefore).write(to: URL(fileURLWithPath: store + "/" + may.documentPath))
            let journal = try #require(library.moves.journal)
            try journal.begin(MoveJournal.Move(id: id, source: may, destination: june))

            let mounted = try MountedStore(in: folder, copyingSample: false, environment: ["XDG_STATE_HOME": state])
            let shown = { (month: String) throws -> [String] in
                try FileManager.default.contentsOfDirectory(atPath: mounted.mountPoint + "/records/2024/" + month)
                    .filter { $0.hasSuffix(".json") }
                    .filter { (try? String(contentsOfFile: mounted.mountPoint + "/records/2024/\(month)/" + $0, encoding: .utf8))?.contains(id) == true }
            }
            #expect(try shown("05").isEmpty, "the record is still shown in May")
            #expect(try shown("06") == ["2024-06-02_080000.json"])
            #expect(!FileManager.default.fileExists(atPath: journal.path), "the finished move is still journaled")
            #expect(mounted.unmount() == 0)
            let mayOnDisk = try Document.load(Fixtures.contents(ofFileAtPath: store + "/" + may.documentPath))
            #expect(mayOnDisk.value(of: .root, key: id) == nil)
        }
    }
}
