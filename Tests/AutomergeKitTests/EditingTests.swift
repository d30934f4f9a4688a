import AutomergeKit
import Testing
import TestSupport

/// Local edits: what they show, and that they become changes that load back identically.
struct EditingTests {
    let alice = ActorID(hexString: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")!
    let bob = ActorID(hexString: "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")!

    @Test("a document built with the API saves, loads and saves again byte for byte, with the same hashes")
    func roundTrip() throws {
        var document = Document(actor: alice)
        let record = try document.putObject(.map, forKey: "5F1C0000-0000-0000-0000-000000000001")
        try document.put(.timestamp(1_705_311_000_000), forKey: "startTime", in: record)
        try document.put(.string("Work"), forKey: "tagId", in: record)
        let comment = try document.putObject(.text, forKey: "comment", in: record)
        try document.spliceText(comment, at: 0, delete: 0, insert: "Hello 👩‍💻 wörld")
        let images = try document.putObject(.list, forKey: "images", in: record)
        try document.insert(.string("a.jpg"), at: 0, in: images)
        try document.insert(.string("b.jpg"), at: 1, in: images)
        try document.put(.counter(5), forKey: "count")
        try document.increment(forKey: "count", by: 3)
        try document.put(.f64(-0.0), forKey: "zero")
        try document.put(.bytes([0, 255]), forKey: "raw")
        try document.put(.uint(UInt64.max), forKey: "big")
        document.commit(message: "first", time: 1_705_311_000)
        try document.spliceText(comment, at: 6, delete: 3, insert: "big ")  // 👩‍💻 is three scalars
        try document.delete(at: 0, in: images)
        try document.delete(forKey: "raw")
        document.commit(time: 1_705_311_001)

        let saved = try document.save()
        var loaded = try Document.load(saved)
        #expect(try loaded.save() == saved)
        #expect(loaded.heads == document.heads)
        #expect(loaded.changes.map(\.hash) == document.changes.map(\.hash))
        #expect(loaded.text(of: comment) == "Hello big  wörld")
        #expect(loaded.elements(of: images).map { $0.last?.value } == [.scalar(.string("b.jpg"))])
        #expect(loaded.value(of: .root, key: "count") == .scalar(.counter(8)))
        #expect(loaded.value(of: .root, key: "raw") == nil)
        #expect(loaded.changes.map(\.sequence) == [1, 2])
        #expect(loaded.changes[1].dependencies == [loaded.changes[0].hash])
    }

    @Test("change chunks from saveIncremental load on top of the last full save")
    func incrementalSave() throws {
        var document = Document(actor: alice)
        try document.put(.string("one"), forKey: "a")
        var file = try document.save()
        try document.put(.string("two"), forKey: "b")
        document.commit(time: 1)
        file += document.saveIncremental()
        #expect(document.saveIncremental().isEmpty)
        let loaded = try Document.load(file)
        #expect(loaded.keys(of: .root) == ["a", "b"])
        #expect(loaded.heads == document.heads)
    }

    /// A local change starts after the largest op counter of any change held, whoever made it: after a
    /// merge of another actor's longer history, after a load, and after changes applied as chunks.
    @Test("a local change starts after the largest operation of the whole history")
    func changeStartsAfterTheLargestOperation() throws {
        func expectStartsAfterTheRest(_ document: Document, _ context: String) throws {
            let changes = document.changes
            let last = try #require(changes.last)
            let largestBefore = changes.dropLast().map { $0.startOperation + UInt64($0.operationCount) - 1 }.max() ?? 0
            #expect(last.startOperation == largestBefore + 1, "\(context)")
        }
        var mine = Document(actor: alice)
        try mine.put(.int(1), forKey: "a")
        mine.commit(time: 1)
        var theirs = mine.fork(actor: bob)
        for step in 0..<40 { try theirs.put(.int(Int64(step)), forKey: "b") }
        theirs.commit(time: 2)
        try mine.put(.int(2), forKey: "a")
        mine.commit(time: 3)
        try mine.merge(theirs)
        try mine.put(.int(3), forKey: "a")
        mine.commit(time: 4)
        try expectStartsAfterTheRest(mine, "after a merge")
        var loaded = try Document.load(mine.save())
        loaded.setActor(alice)
        try loaded.put(.int(4), forKey: "a")
        loaded.commit(time: 5)
        try expectStartsAfterTheRest(loaded, "after a load")
        var applied = Document(actor: alice)
        try applied.apply(changeChunks: theirs.changeChunks(since: []).flatMap { $0 })
        try applied.put(.int(5), forKey: "c")
        applied.commit(time: 6)
        try expectStartsAfterTheRest(applied, "after changes applied")
    }

    @Test("setting the value a key already shows writes no operation")
    func identicalPutIsNoOp() throws {
        var document = Document(actor: alice)
        try document.put(.string("same"), forKey: "k")
        document.commit(time: 1)
        try document.put(.string("same"), forKey: "k")
        #expect(document.commit(time: 2) == nil)
        #expect(document.changes.count == 1)
    }

    @Test("concurrent writes to one key keep both values; the greater op id wins")
    func conflicts() throws {
        var base = Document(actor: alice)
        try base.put(.string("base"), forKey: "comment")
        base.commit(time: 1)
        var left = base.fork(actor: alice)
        var right = base.fork(actor: bob)
        try left.put(.string("A"), forKey: "comment")
        left.commit(time: 2)
        try right.put(.string("B"), forKey: "comment")
        right.commit(time: 2)
        try left.merge(right)
        let values = left.values(of: .root, key: "comment")
        #expect(values.map(\.value) == [.scalar(.string("A")), .scalar(.string("B"))])
        #expect(values.last?.id.actor == bob)
        try left.put(.string("resolved"), forKey: "comment")
        left.commit(time: 3)
        #expect(left.values(of: .root, key: "comment").count == 1)
    }

    @Test("keys that differ only in Unicode normalisation stay two keys")
    func normalisationDistinctKeys() throws {
        var document = Document(actor: alice)
        try document.put(.int(1), forKey: "\u{E9}")
        try document.put(.int(2), forKey: "e\u{301}")
        document.commit(time: 1)
        let loaded = try Document.load(document.save())
        #expect(loaded.keys(of: .root).count == 2)
        #expect(loaded.value(of: .root, key: "e\u{301}") == .scalar(.int(2)))
    }

    @Test("impossible edits throw and change nothing", arguments: [0, 1, 2, 3])
    func impossibleEdits(kind: Int) throws {
        var document = Document(actor: alice)
        let list = try document.putObject(.list, forKey: "list")
        document.commit(time: 1)
        let before = document.heads
        #expect(throws: AutomergeError.self) {
            switch kind {
            case 0: try document.delete(at: 3, in: list)
            case 1: try document.insert(.null, at: 2, in: list)
            case 2: try document.increment(forKey: "missing", by: 1)
            default: try document.put(.null, forKey: "k", in: list)
            }
        }
        #expect(document.commit(time: 2) == nil)
        #expect(document.heads == before)
    }
}
