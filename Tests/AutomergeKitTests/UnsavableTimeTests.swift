import AutomergeKit
import Testing
import TestSupport

/// A document whose change times lie at both ends of `Int64` loads from its change chunks, but a
/// document chunk cannot hold its time column: the difference between two neighbouring times does
/// not fit in 64 bits. The reference saves it anyway, as bytes no loader accepts ("mismatching
/// heads", `Tests/Fixtures/edges/int64-ends.reference-save.automerge`); here `save` refuses with a
/// typed error naming the change, so such bytes are never written over a file that loads (SPEC 5a).
struct UnsavableTimeTests {
    static let actor = ActorID(bytes: [0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99])

    /// A document of one change per time, each putting one key.
    static func document(times: [Int64]) throws -> Document {
        var document = Document(actor: actor)
        for (index, time) in times.enumerated() {
            try document.put(.int(Int64(index)), forKey: "key\(index)")
            _ = document.commit(time: time)
        }
        return document
    }

    @Test("the fixture (times -2^63, 2^63-1, -2^63 in three change chunks) loads, and its save is refused naming the second change and its time")
    func fixtureRefused() throws {
        let bytes = try Fixtures.bytes("int64-ends.changes.automerge", in: "edges")
        var document = try Document.load(bytes)
        #expect(document.changeCount == 3)
        let heads = document.heads
        do {
            let saved = try document.save()
            Issue.record("saved as \(saved.count) bytes, which load as \(String(describing: try? Document.load(saved).heads))")
        } catch {
            #expect(error.kind == .unsavableValue)
            #expect(error.description.contains("change 9c69d1bf71178b999d3a17e986444e3b9e29ef1e6494d9761bc5c2d0ac78dcd8"), "\(error)")
            #expect(error.description.contains("time 9223372036854775807") && error.description.contains("-9223372036854775808"), "\(error)")
        }
        // Nothing changed: the document still gives its changes, which load back to it.
        #expect(document.heads == heads)
        #expect(try Document.load(document.changeChunks(afterFirst: 0)).heads == heads)
        #expect(throws: AutomergeError.self) { try document.requireSavable() }
    }

    @Test("the reference's own save of the fixture does not load here either")
    func referenceSaveDoesNotLoad() throws {
        let bytes = try Fixtures.bytes("int64-ends.reference-save.automerge", in: "edges")
        #expect(throws: AutomergeError.self) { try Document.load(bytes) }
    }

    @Test("save refuses exactly when two neighbouring times are more than 2^63 - 1 apart; requireSavable agrees", arguments: [
        ([Int64.min, Int64.max, Int64.min], false),
        ([1_700_000_000_000, Int64.min], false),
        ([-(1 << 62), 1 << 62], false),
        ([-(1 << 62), (1 << 62) - 1], true),
        ([Int64.min, -1, Int64.max - 1], true),
        ([Int64.min, -1, Int64.max], false),
        ([Int64.max, 0, Int64.min], true),
        ([0, 1_700_000_000, 1_700_000_060], true),
    ] as [([Int64], Bool)])
    func boundary(times: [Int64], savable: Bool) throws {
        var document = try Self.document(times: times)
        let result = Result { () throws(AutomergeError) in try document.save() }
        #expect(((try? result.get()) != nil) == savable, "\(result)")
        #expect(((try? document.requireSavable()) != nil) == savable)
        if let saved = try? result.get() {
            #expect(try Document.load(saved).heads == document.heads)
        }
    }

    @Test("merging a copy that brings a time at an end of Int64 beside ordinary times is refused before anything changes")
    func mergeChecked() throws {
        let month = try Self.document(times: [1_700_000_000, 1_700_000_100])
        var copy = month.fork(actor: ActorID(bytes: Array(repeating: 0x42, count: 16)))
        try copy.put(.string("from a broken device"), forKey: "comment")
        _ = copy.commit(time: Int64.min)
        #expect(throws: AutomergeError.self) { try month.requireSavable(merging: copy) }
        var ordinary = month.fork(actor: ActorID(bytes: Array(repeating: 0x43, count: 16)))
        try ordinary.put(.string("from a good device"), forKey: "comment")
        _ = ordinary.commit(time: 1_700_000_200)
        try month.requireSavable(merging: ordinary)
        // Both ends in one copy of its own, merged into an empty document, are refused too.
        let ends = try Self.document(times: [Int64.min, Int64.max])
        #expect(throws: AutomergeError.self) { try Document().requireSavable(merging: ends) }
    }
}
