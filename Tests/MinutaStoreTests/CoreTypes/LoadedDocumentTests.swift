import AutomergeKit
@testable import MinutaStore
import Testing

/// `LoadedDocument` alone: its view is kept with the document's version, so a document changed by any
/// path, whether or not it said so, never serves the view of before.
struct LoadedDocumentTests {
    static func view(_ names: [String]) -> MonthView {
        MonthView(files: names.map { RecordFile(name: $0, id: $0.uppercased(), contents: [], modificationTime: 0) },
                  startTimes: names.map { _ in nil })
    }

    static func document() throws -> Document {
        var document = Document(actor: .random())
        let record = try document.putObject(.map, forKey: "A")
        try document.put(.string("first"), forKey: "comment", in: record)
        document.commit(time: 1)
        return document
    }

    @Test("a view set for the document as it is is served")
    func currentViewServed() throws {
        let loaded = LoadedDocument(document: try Self.document(), identity: nil, view: Self.view(["a.json"]), savedChangeCount: 1)
        #expect(loaded.view?.files.map(\.name) == ["a.json"])
    }

    @Test("a change the code forgot to announce still withdraws the view: it is keyed by the version")
    func changeWithdrawsView() throws {
        var loaded = LoadedDocument(document: try Self.document(), identity: nil, view: Self.view(["a.json"]), savedChangeCount: 1)
        let record = try #require(RecordView.object("A", in: loaded.document))
        try loaded.document.put(.string("second"), forKey: "comment", in: record)
        #expect(loaded.view == nil, "an uncommitted operation changes the version")
        loaded.document.commit(time: 2)
        #expect(loaded.view == nil, "a committed change changes the heads")
    }

    @Test("an edit of one record keeps the old view to reuse, naming the record to render again")
    func invalidateViewKeepsReusable() throws {
        var loaded = LoadedDocument(document: try Self.document(), identity: nil, view: Self.view(["a.json", "b.json"]), savedChangeCount: 1)
        loaded.invalidateView(changedRecord: "a")
        #expect(loaded.view == nil)
        #expect(loaded.reusableView?.view.files.count == 2)
        #expect(loaded.reusableView?.changedRecords == [RecordID("A")])
        loaded.invalidateView(changedRecord: "B")
        #expect(loaded.reusableView?.changedRecords == [RecordID("A"), RecordID("B")])
    }

    @Test("a merge from elsewhere leaves nothing to reuse")
    func mergeDropsReusable() throws {
        var loaded = LoadedDocument(document: try Self.document(), identity: nil, view: Self.view(["a.json"]), savedChangeCount: 1)
        loaded.invalidateView(changedRecord: "A")
        loaded.noteMerged()
        #expect(loaded.reusableView == nil)
    }

    @Test("the file identity counts only while the document holds nothing the file lacks")
    func savedFileIdentity() throws {
        let identity = BackingFiles.Identity(device: 1, inode: 2, size: 3, modificationSeconds: 4, modificationNanoseconds: 5)
        var loaded = LoadedDocument(document: try Self.document(), identity: identity, view: nil, savedChangeCount: 1)
        #expect(loaded.savedFileIdentity == identity)
        let record = try loaded.document.putObject(.map, forKey: "B")
        try loaded.document.put(.string("new"), forKey: "comment", in: record)
        loaded.document.commit(time: 2)
        #expect(loaded.savedFileIdentity == nil)
    }
}

extension LoadedDocumentTests {
    @Test("an edit announced after its operations, before the commit, still reuses the view it changed")
    func editThenInvalidateReuses() throws {
        var loaded = LoadedDocument(document: try Self.document(), identity: nil, view: Self.view(["a.json", "b.json"]), savedChangeCount: 1)
        let record = try #require(RecordView.object("A", in: loaded.document))
        try loaded.document.put(.string("edited"), forKey: "comment", in: record)
        loaded.invalidateView(changedRecord: "A")
        #expect(loaded.reusableView?.view.files.count == 2, "the edit's own uncommitted operations do not make the view useless")
        #expect(loaded.reusableView?.changedRecords == [RecordID("A")])
    }

    @Test("a view of other heads (a commit or merge since it was rendered) is not reused")
    func viewOfOtherHeadsNotReused() throws {
        var loaded = LoadedDocument(document: try Self.document(), identity: nil, view: Self.view(["a.json"]), savedChangeCount: 1)
        let other = try loaded.document.putObject(.map, forKey: "B")
        try loaded.document.put(.string("from elsewhere"), forKey: "comment", in: other)
        loaded.document.commit(time: 2)
        loaded.invalidateView(changedRecord: "A")
        #expect(loaded.reusableView == nil)
    }
}
