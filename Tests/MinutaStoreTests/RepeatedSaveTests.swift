import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// A mount left running for months by a script that edits one record: what each save adds
/// must stay bounded. Saves append the new change chunks to the file and write it whole again once
/// the appended part passes `Store.appendLimit` (64 KiB), so the file never grows past its compact
/// size plus that much, however many saves.
@Suite
struct RepeatedSaveTests {
    @Test("600 saves of one record: the file stays within its compact size plus 64 KiB, and loads as the store holds it")
    func fileStaysBounded() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let february = try #require(Month(year: 2024, month: 2))
            let first = try #require(try store.recordFiles(in: february).first)
            let documentPath = path + "/" + february.documentPath
            var largestExcess = 0
            var compactions = 0
            var previousSize = try Fixtures.contents(ofFileAtPath: documentPath).count
            for index in 1...600 {
                guard case .object(var members) = try JSONParser.parse(first.contents) else {
                    Issue.record("not a JSON object")
                    return
                }
                members.removeAll { $0.key == "comment" }
                // Long comments, so that 64 KiB of appended changes is reached a few times.
                members.append((key: "comment", value: .string("save \(index) " + String(repeating: "x", count: 300 + index % 50))))
                _ = try store.writeRecordFile(JSONWriter.pretty(.object(members)), named: first.name, in: february)

                let bytes = try Fixtures.contents(ofFileAtPath: documentPath)
                var loaded = try Document.load(bytes)
                let compact = try loaded.save()
                largestExcess = max(largestExcess, bytes.count - compact.count)
                if bytes.count < previousSize { compactions += 1 }
                previousSize = bytes.count
                if index % 100 == 0 {
                    let shown = try #require(try store.recordFiles(in: february).first { $0.id == first.id })
                    #expect(StoreFixture.text(shown.contents).contains("save \(index) "))
                    #expect(loaded.changeCount > index, "the file lacks saves")
                }
            }
            #expect(largestExcess <= 64 << 10, "the file grew \(largestExcess) bytes past its compact size")
            #expect(compactions >= 2, "the file was written whole again \(compactions) times in 600 saves")
        }
    }
}
