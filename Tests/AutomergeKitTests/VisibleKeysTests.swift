@testable import AutomergeKit
import Testing
import TestSupport

/// A map key's visible operations are kept as changes apply, instead of being found by
/// scanning every operation the key ever had. These tests hold the kept lists against that scan.
struct VisibleKeysTests {
    /// Every map key of every object: the kept list equals the visible operations of the whole key.
    static func expectKeptListsMatchScan(_ document: Document, _ context: String) {
        let set = document.operationSet
        for (id, object) in set.objects {
            for (property, indices) in object.keys {
                let scanned = set.visibleOperations(indices)
                let kept = object.visibleOperations(at: property)
                #expect(kept == scanned, "\(context): object \(id.counter) key \(set.properties[property].string)")
            }
            for property in object.visibleKeys.keys where object.keys[property] == nil {
                Issue.record("\(context): a visible list for a key with no operations")
            }
        }
    }

    @Test("random edits, increments, deletions and merges keep each key's visible list exact", arguments: [UInt64(11), 12, 13, 14, 15, 16])
    func keptThroughEditsAndMerges(seed: UInt64) throws {
        var merged = try RandomEditRounds.run(
            seed: seed, actorByte: 33, rounds: 12, editsPerTurn: 1...6,
            edit: { document, random in try ConvergenceTests.randomEdit(&document, using: &random) },
            check: Self.expectKeptListsMatchScan)
        Self.expectKeptListsMatchScan(merged, "all merged")
        let loaded = try Document.load(merged.save())
        Self.expectKeptListsMatchScan(loaded, "loaded")
        #expect(loaded.typedJSON() == merged.typedJSON())
    }

    @Test("a key overwritten many times keeps one visible operation, and a counter stays through increments")
    func longHistory() throws {
        var document = Document(actor: ActorID(bytes: [UInt8](repeating: 7, count: 16)))
        try document.put(.counter(5), forKey: "count")
        for step in 0..<2_000 {
            try document.put(.string("comment \(step)"), forKey: "comment")
            try document.increment(forKey: "count", by: 1)
            document.commit(time: Int64(step))
        }
        let root = document.operationSet.objects[.root]
        let comment = try #require(document.operationSet.existingProperty(ColumnString("comment")))
        #expect(root?.keys[comment]?.count == 2_000)
        #expect(root?.visibleOperations(at: comment).count == 1)
        #expect(document.value(of: .root, key: "comment") == .scalar(.string("comment 1999")))
        #expect(document.value(of: .root, key: "count") == .scalar(.counter(2_005)))
        let loaded = try Document.load(document.save())
        #expect(loaded.value(of: .root, key: "comment") == .scalar(.string("comment 1999")))
        #expect(loaded.value(of: .root, key: "count") == .scalar(.counter(2_005)))
        Self.expectKeptListsMatchScan(loaded, "loaded")
        try document.delete(forKey: "count")
        #expect(document.value(of: .root, key: "count") == nil)
        #expect(document.keys(of: .root) == ["comment"])
        Self.expectKeptListsMatchScan(document, "after deleting the counter")
    }
}
