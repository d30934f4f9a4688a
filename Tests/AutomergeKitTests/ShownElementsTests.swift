@testable import AutomergeKit
import Testing
import TestSupport

/// Each sequence element keeps the operation it shows (`ObjectState.Element.shown`) as changes apply,
/// so reads and splices pass over deleted elements without looking at their operations. These tests
/// hold the kept value against a look at every operation of the element, through edits, concurrent
/// edits merged, counters in lists, loads and applied change chunks.
struct ShownElementsTests {
    /// Every element of every sequence: the kept operation is the element's last visible one.
    static func expectShownMatchesScan(_ document: Document, _ context: String) {
        let set = document.operationSet
        for (id, object) in set.objects {
            for (store, element) in object.elementStore.enumerated() {
                let scanned = element.operations.lastVisible(in: set) ?? -1
                #expect(element.shown == scanned, "\(context): object \(id.counter) element \(store)")
            }
        }
    }

    private static let letters = Array("abcdefghij")

    /// One random edit of a text ("text") or a list of counters and strings ("list").
    static func randomSequenceEdit(_ document: inout Document, using random: inout SeededGenerator) throws {
        let text = document.value(of: .root, key: "text").flatMap { if case .object(let id, _) = $0 { id } else { nil } }
        let list = document.value(of: .root, key: "list").flatMap { if case .object(let id, _) = $0 { id } else { nil } }
        guard let text, let list else {
            if text == nil { _ = try document.putObject(.text, forKey: "text") }
            if list == nil { _ = try document.putObject(.list, forKey: "list") }
            return
        }
        let textLength = document.text(of: text).unicodeScalars.count
        let listLength = document.length(of: list)
        switch Int.random(in: 0..<7, using: &random) {
        case 0, 1:
            let index = Int.random(in: 0...textLength, using: &random)
            let deleteCount = Int.random(in: 0...min(3, textLength - index), using: &random)
            let insert = String((0..<Int.random(in: 0...3, using: &random)).compactMap { _ in letters.randomElement(using: &random) })
            try document.spliceText(text, at: index, delete: deleteCount, insert: insert)
        case 2:
            try document.insert(.counter(Int64.random(in: 0...9, using: &random)), at: Int.random(in: 0...listLength, using: &random), in: list)
        case 3:
            guard listLength > 0 else { return }
            let index = Int.random(in: 0..<listLength, using: &random)
            if case .scalar(.counter)? = document.value(of: list, index: index) {
                try document.increment(at: index, in: list, by: Int64.random(in: -3...3, using: &random))
            } else {
                try document.put(.counter(1), at: index, in: list)
            }
        case 4:
            guard listLength > 0 else { return }
            try document.put(.string("set"), at: Int.random(in: 0..<listLength, using: &random), in: list)
        case 5:
            guard listLength > 0 else { return }
            try document.delete(at: Int.random(in: 0..<listLength, using: &random), in: list)
        default:
            // The whole text rewritten, as a record's comment saved through the mount is.
            try document.spliceText(text, at: 0, delete: textLength, insert: "rewritten \(Int.random(in: 0...99, using: &random))")
        }
    }

    @Test("random splices, counters in lists, deletions and merges keep each element's shown operation exact",
          arguments: [UInt64(21), 22, 23, 24, 25, 26])
    func keptThroughEditsAndMerges(seed: UInt64) throws {
        var merged = try RandomEditRounds.run(
            seed: seed, actorByte: 41, rounds: 15, editsPerTurn: 1...8,
            setUp: { document in
                _ = try document.putObject(.text, forKey: "text")
                _ = try document.putObject(.list, forKey: "list")
            },
            edit: Self.randomSequenceEdit, check: Self.expectShownMatchesScan)
        Self.expectShownMatchesScan(merged, "all merged")
        let loaded = try Document.load(merged.save())
        Self.expectShownMatchesScan(loaded, "loaded")
        #expect(loaded.typedJSON() == merged.typedJSON())
        var applied = Document(actor: ActorID(bytes: [UInt8](repeating: 9, count: 16)))
        try applied.apply(changeChunks: merged.changeChunks(since: []).flatMap { $0 })
        Self.expectShownMatchesScan(applied, "changes applied one by one")
        #expect(applied.typedJSON() == merged.typedJSON())
    }

    @Test("a comment rewritten many times reads, splices and loads as its last version")
    func textRewrittenManyTimes() throws {
        var document = Document(actor: ActorID(bytes: [UInt8](repeating: 5, count: 16)))
        let text = try document.putObject(.text, forKey: "comment")
        for step in 0..<500 {
            let length = document.text(of: text).unicodeScalars.count
            try document.spliceText(text, at: 0, delete: length, insert: "save \(step % 2 == 0 ? "A" : "B") \(step)")
            document.commit(time: Int64(step))
        }
        #expect(document.text(of: text) == "save B 499")
        #expect(document.length(of: text) == 10)
        try document.spliceText(text, at: 5, delete: 1, insert: "C")
        #expect(document.text(of: text) == "save C 499")
        Self.expectShownMatchesScan(document, "after the rewrites")
        let loaded = try Document.load(document.save())
        #expect(loaded.text(of: text) == "save C 499")
        Self.expectShownMatchesScan(loaded, "loaded")
    }
}
