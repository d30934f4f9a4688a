import AutomergeKit
@testable import MinutaStore
import Testing

/// `MonthReplica` alone: a month is decoded or parked, and only a decoded month with nothing unsaved
/// has a parked form.
struct MonthReplicaTests {
    static func saved() throws -> LoadedDocument {
        var document = Document(actor: .random())
        try MonthReplicasTests.add(1, to: &document)
        let bytes = try document.save()
        var read = try Document.load(bytes)
        read.setActor(.random())
        let identity = BackingFiles.Identity(device: 1, inode: 2, size: Int64(bytes.count), modificationSeconds: 3, modificationNanoseconds: 4)
        return LoadedDocument(read: read, identity: identity, bytes: bytes)
    }

    @Test("a document just read parks with its bytes and identity; the replica tells which form it is in")
    func parksWhenSaved() throws {
        var held = try Self.saved()
        let parked = try #require(MonthReplica.parkedForm(of: &held, commitTime: 0))
        #expect(parked.bytes == held.savedBytes)
        #expect(parked.identity == held.identity)
        #expect(!parked.hasConflicts)
        let replica = MonthReplica.parked(parked)
        #expect(replica.decoded == nil)
        #expect(replica.identity == held.identity)
        #expect(MonthReplica.decoded(held).parked == nil)
    }

    @Test("a document with an edit its file lacks, committed or not, and one never saved, do not park")
    func keepsWhatIsUnsaved() throws {
        var edited = try Self.saved()
        try MonthReplicasTests.add(2, to: &edited.document)
        #expect(MonthReplica.parkedForm(of: &edited, commitTime: 0) == nil)
        // The pending edit was committed by the attempt: still a change the file lacks.
        #expect(MonthReplica.parkedForm(of: &edited, commitTime: 0) == nil)
        var unsaved = LoadedDocument(document: Document(actor: .random()), identity: nil, view: nil, savedChangeCount: -1)
        #expect(MonthReplica.parkedForm(of: &unsaved, commitTime: 0) == nil)
    }
}
