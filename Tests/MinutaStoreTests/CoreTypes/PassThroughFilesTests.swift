import Foundation
@testable import MinutaStore
import Testing
import TestSupport

/// `PassThroughFiles` over a `MonthReplicas` of its own (no `Store` around it): what is shown, what is
/// refused, and an image attached to the record it is named after.
struct PassThroughFilesTests {
    static let january = Month(year: 2024, month: 1)!

    static func files(_ setup: MonthReplicasTests.Setup) -> (PassThroughFiles, StoreEvents) {
        let events = StoreEvents(log: { _ in })
        let replicas = setup.replicas
        let moves = RecordMoves(replicas: replicas, documentFiles: replicas.documentFiles, events: events, journal: nil, memory: nil, log: { _ in })
        let records = RecordSaver(replicas: replicas, documentFiles: replicas.documentFiles, events: events, moves: moves)
        return (PassThroughFiles(backingFolder: BackingFolder(path: setup.path, events: events), documentFiles: replicas.documentFiles,
                                 replicas: replicas, records: records, events: events), events)
    }

    @Test("documents, conflict copies and the store's and sync tools' files are hidden; other names are shown")
    func hiddenNames() {
        for name in ["01.automerge", "tags.automerge", ".stfolder", ".minutafs-quarantine", ".syncthing.a.png.tmp",
                     ".a.minutafs-host-1f.tmp", ".dropbox.cache", "~$doc.docx"] {
            #expect(PassThroughFiles.isHidden(name), "\(name)")
        }
        for name in ["a.png", "notes.txt", "2024", "tags.json.bak"] {
            #expect(!PassThroughFiles.isHidden(name), "\(name)")
        }
    }

    @Test("a record's JSON under another name in a month folder or in a folder inside it, or tags.json's at the top, is refused; other bytes are taken")
    func refusals() {
        let record = Array(#"{"id": "0A000000-0000-4000-8000-000000000001", "comment": "x"}"#.utf8)
        let tags = Array(#"{"tags": []}"#.utf8)
        #expect(PassThroughFiles.refusal(of: record, to: "records/2024/01/copy.json", inMonth: true) == .recordUnderOtherName("copy.json"))
        // In a folder inside the month folder, the reason says so: the name was not what was wrong.
        let nested = PassThroughFiles.refusal(of: record, to: "records/2024/01/sub/dir/z.json", inMonth: true)
        #expect(nested == .recordInSubfolder("sub/dir/z.json"))
        #expect(nested?.description.contains("directly in a month folder") == true)
        #expect(nested?.description.contains("name it *.json") == false)
        #expect(PassThroughFiles.refusal(of: tags, to: "tags.json.orig", inMonth: false) == .tagsUnderOtherName("tags.json.orig"))
        #expect(PassThroughFiles.refusal(of: tags, to: "notes/tags.json.orig", inMonth: false) == nil)
        #expect(PassThroughFiles.refusal(of: Array("a note".utf8), to: "records/2024/01/n.txt", inMonth: true) == nil)
        #expect(PassThroughFiles.refusal(of: record, to: "backup.json", inMonth: false) == nil)
    }

    @Test("an image written under a record's id is attached to it, and detached when removed; a refused write is noted")
    func images() throws {
        try withTemporaryDirectory { folder in
            let setup = try MonthReplicasTests.Setup(in: folder)
            try setup.writeMonth([1])
            let (files, events) = Self.files(setup)
            let image = "records/2024/01/\(MonthReplicasTests.id(1))_1.png"
            try files.write([0x89, 0x50], to: image, month: Self.january)
            #expect(try files.contents(image) == [0x89, 0x50])
            #expect(try files.entries("records/2024/01").map(\.name) == ["\(MonthReplicasTests.id(1))_1.png"])
            #expect(try files.entries("records/2024").map(\.name) == ["01"])
            let record = try #require(try setup.replicas.recordFiles(in: Self.january).first)
            #expect(String(decoding: record.contents, as: UTF8.self).contains("\(MonthReplicasTests.id(1))_1.png"))
            try files.remove(image, month: Self.january)
            let after = try #require(try setup.replicas.recordFiles(in: Self.january).first)
            #expect(!String(decoding: after.contents, as: UTF8.self).contains("_1.png"))
            #expect(throws: StoreError.self) { try files.write(record.contents, to: "records/2024/01/copy.json", month: Self.january) }
            #expect(events.snapshot.rejectedWriteCount == 1)
            #expect(files.status("records/2024/01/copy.json") == nil)
        }
    }
}
