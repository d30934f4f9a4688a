import AutomergeKit
import Foundation
@testable import MinutaStore
import Testing
import TestSupport

/// `TagsReplica` alone, over a folder of its own: the tags document is loaded on first use (an empty
/// one without a file), `tags.json` is rendered from the version held, a kept change is what the next
/// read shows, and a change not kept or failed leaves the tags as they were.
struct TagsReplicaTests {
    static func replica(_ path: String) -> TagsReplica {
        let events = StoreEvents(log: { _ in })
        let actor = ActorID.random()
        let files = DocumentFiles(folder: BackingFolder(path: path, events: events), actor: actor, unreadable: UnreadableFiles(),
                                  events: events, clock: { 1_704_067_200 })
        return TagsReplica(reader: DocumentReader(documentFiles: files, waitingCopyReader: WaitingCopyReader(path: path, actor: actor, isMerging: false)),
                           actor: actor)
    }

    static func names(_ file: [UInt8]) throws -> [String] {
        guard case .array(let tags)? = try JSONParser.parse(file)["tags"] else { return [] }
        return tags.compactMap { if case .string(let name)? = $0["name"] { name } else { nil } }
    }

    static func addTag(_ name: String, to loaded: inout LoadedDocument) throws(StoreError) {
        do {
            let tag = try loaded.document.putObject(.map, forKey: RecordID.random().text)
            try loaded.document.put(.string(name), forKey: "name", in: tag)
        } catch {
            throw .notFound("tag")
        }
    }

    @Test("without a file the tags are an empty list, held once read")
    func empty() throws {
        try withTemporaryDirectory { folder in
            let tags = Self.replica(folder)
            #expect(!tags.isHeld)
            let names = try Self.names(tags.file())
            #expect(names.isEmpty)
            #expect(tags.isHeld)
            let identity = try tags.documentAndFile().identity
            #expect(identity == nil)
        }
    }

    @Test("a kept change is what tags.json shows next; one not kept or failed changes nothing")
    func changes() throws {
        try withTemporaryDirectory { folder in
            let tags = Self.replica(folder)
            #expect(try Self.names(tags.file()).isEmpty)
            try tags.withChange { (loaded: inout LoadedDocument) throws(StoreError) in try Self.addTag("Work", to: &loaded) }
            #expect(try Self.names(tags.file()) == ["Work"])
            let kept = try tags.withChange({ (loaded: inout LoadedDocument) throws(StoreError) -> Bool in
                try Self.addTag("Not kept", to: &loaded)
                return false
            }, keepsChange: { $0 })
            #expect(!kept)
            #expect(throws: StoreError.self) {
                try tags.withChange { (loaded: inout LoadedDocument) throws(StoreError) in
                    try Self.addTag("Failed", to: &loaded)
                    throw .notFound("the change failed")
                }
            }
            #expect(try Self.names(tags.file()) == ["Work"])
        }
    }

    @Test("a tags document on disk is read on first use")
    func readsFile() throws {
        try withTemporaryDirectory { folder in
            var document = Document(actor: .random())
            let tag = try document.putObject(.map, forKey: RecordID.random().text)
            try document.put(.string("Home"), forKey: "name", in: tag)
            try Data(document.save()).write(to: URL(fileURLWithPath: folder + "/tags.automerge"))
            let tags = Self.replica(folder)
            tags.prepare()
            #expect(tags.isHeld)
            #expect(try Self.names(tags.file()) == ["Home"])
            #expect(try tags.documentAndFile().identity != nil)
        }
    }
}
