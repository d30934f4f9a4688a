import AutomergeKit
import Testing
import TestSupport

/// Reading a file's root keys without loading it, and when an object last changed: what the store
/// uses to show a record held by two month documents once.
struct RootKeysTests {
    @Test("a reference document's root keys are all among the keys its file writes at the root",
          arguments: try Fixtures.referenceDocumentNames())
    func referenceDocuments(name: String) throws {
        let bytes = try Fixtures.bytes("\(name).automerge")
        let document = try Document.load(bytes)
        let written = try Document.rootKeysWritten(inFile: bytes)
        #expect(Set(document.keys(of: .root)).isSubset(of: written), "\(name)")
    }

    @Test("keys written only in the document chunk, only in appended change chunks, and deleted ones are all found; nested keys are not")
    func chunksAndDeletions() throws {
        var document = Document(actor: ActorID(bytes: [UInt8](repeating: 1, count: 16)))
        let record = try document.putObject(.map, forKey: "A")
        try document.put(.string("nested"), forKey: "inside", in: record)
        try document.put(.int(1), forKey: "B")
        document.commit(time: 10)
        try document.delete(forKey: "B")
        document.commit(time: 11)
        var bytes = try document.save()
        #expect(try Document.rootKeysWritten(inFile: bytes) == ["A", "B"])
        try document.put(.int(2), forKey: "C")
        document.commit(time: 12)
        bytes += document.saveIncremental()
        #expect(try Document.rootKeysWritten(inFile: bytes) == ["A", "B", "C"])
        #expect(try Document.rootKeysWritten(inFile: []) == [])
        #expect(throws: AutomergeError.self) { try Document.rootKeysWritten(inFile: Array(bytes.dropLast(3))) }
    }

    @Test("an object's last change is the latest change that wrote what it shows, nested objects included")
    func lastChangeTime() throws {
        var document = Document(actor: ActorID(bytes: [UInt8](repeating: 2, count: 16)))
        let record = try document.putObject(.map, forKey: "record")
        try document.put(.int(1), forKey: "start", in: record)
        document.commit(time: 100)
        let other = try document.putObject(.map, forKey: "other")
        document.commit(time: 300)
        #expect(document.lastChangeTime(of: record) == 100)
        try document.put(.int(2), forKey: "start", in: record)
        document.commit(time: 200)
        #expect(document.lastChangeTime(of: record) == 200)
        let comment = try document.putObject(.text, forKey: "comment", in: record)
        document.commit(time: 250)
        try document.spliceText(comment, at: 0, delete: 0, insert: "hi")
        document.commit(time: 400)
        #expect(document.lastChangeTime(of: record) == 400)
        #expect(document.lastChangeTime(of: other) == 300)
        // Another device's change, merged: its time counts as well.
        var phone = document.fork(actor: ActorID(bytes: [UInt8](repeating: 3, count: 16)))
        try phone.put(.int(3), forKey: "start", in: record)
        phone.commit(time: 500)
        try document.merge(phone)
        #expect(document.lastChangeTime(of: record) == 500)
        #expect(try Document.load(document.save()).lastChangeTime(of: record) == 500)
        // A writer that stores milliseconds: compared in one unit, its change is not later.
        var app = document.fork(actor: ActorID(bytes: [UInt8](repeating: 4, count: 16)))
        try app.put(.int(4), forKey: "end", in: record)
        app.commit(time: 450_000)
        try document.merge(app)
        #expect(document.lastChangeTime(of: record) == 450_000)
        #expect(document.lastChangeTime(of: record, comparable: { $0 > 10_000 ? $0 / 1000 : $0 }) == 500)
    }
}
