import AutomergeKit
import Testing
import TestSupport

/// Byte-exact saving and merging against the reference (`Tests/Fixtures/automerge/README.md`,
/// "Change order"; SPEC §2).
struct SaveFixtureTests {
    @Test("a reference document loaded and saved gives the reference's re-save byte for byte",
          arguments: try Fixtures.names(withExtension: "saved.automerge").map { String($0.dropLast(".saved.automerge".count)) })
    func resave(name: String) throws {
        var document = try Document.load(Fixtures.bytes("\(name).automerge"))
        let saved = try document.save()
        #expect(ByteDifference(actual: saved, expected: try Fixtures.bytes("\(name).saved.automerge")) == nil)
    }

    @Test("a full save by the reference is a fixed point of load and save",
          arguments: try fullSavesByTheReference())
    func fixedPoint(file: String) throws {
        let bytes = try Fixtures.bytes(file)
        var document = try Document.load(bytes)
        let saved = try document.save()
        #expect(ByteDifference(actual: saved, expected: bytes) == nil)
    }

    @Test("merging the inputs in any flat order gives the merged state, heads and conflicts",
          arguments: try MergeOrder.allFlatOrders())
    func mergeState(order: MergeOrder) throws {
        let scenario = order.scenario
        let merged = try order.merge()
        let name = "\(scenario.name).merged"
        #expect(ByteDifference(actual: merged.typedJSON() + "\n", expected: try Fixtures.bytes("\(name).json")) == nil)
        #expect(ByteDifference(actualLines: merged.heads.map(\.hexString), expected: try Fixtures.bytes("\(name).heads")) == nil)
        #expect(ByteDifference(actualLines: merged.conflictLines(), expected: try Fixtures.bytes("\(name).conflicts")) == nil)
        if order.letters == scenario.inputs, try Fixtures.exists("\(name).changes") {
            #expect(ByteDifference(actualLines: merged.changeLines(), expected: try Fixtures.bytes("\(name).changes")) == nil)
        }
    }

    @Test("merging in a flat order and saving gives the reference's bytes for that order",
          arguments: try MergeOrder.allFlatOrders().filter { $0.scenario.mergedFile(forOrder: $0.letters) != nil })
    func mergeBytes(order: MergeOrder) throws {
        let expectedFile = try #require(order.scenario.mergedFile(forOrder: order.letters))
        var merged = try order.merge()
        let saved = try merged.save()
        #expect(ByteDifference(actual: saved, expected: try Fixtures.bytes(expectedFile)) == nil)
    }

    @Test("merging a merged result with one of its inputs again changes nothing",
          arguments: try FixtureScenario.mergeSets().flatMap { scenario in
              (scenario.inputs ?? []).map { MergeOrder(scenario: scenario, letters: ["merged", $0]) }
          })
    func mergeIsIdempotent(order: MergeOrder) throws {
        let mergedBytes = try Fixtures.bytes(order.scenario.inputFile("merged"))
        var merged = try order.merge()
        let saved = try merged.save()
        #expect(ByteDifference(actual: saved, expected: mergedBytes) == nil)
    }

    @Test("every merge order the reference checked, nested ones too, gives the bytes of its group",
          arguments: try GroupedMergeOrder.all())
    func mergeOrderGroups(order: GroupedMergeOrder) throws {
        var merged = try order.evaluate(order.expression)
        let saved = try merged.save()
        #expect(ByteDifference(actual: saved, expected: try Fixtures.bytes(order.expectedFile)) == nil)
    }
}

/// Every file the README names a full save by the reference: the re-saves, every `NAME.automerge`
/// whose manifest entry says `resave_identical`, and all merge inputs and results.
private func fullSavesByTheReference() throws -> [String] {
    let resaveIdentical = Set(try FixtureScenario.all().filter { $0.resaveIdentical == true }.map { "\($0.name).automerge" })
    return try Fixtures.names(withExtension: "automerge").filter { file in
        resaveIdentical.contains(file)
            || file.hasSuffix(".saved.automerge")
            || file.hasSuffix(".a.automerge") || file.hasSuffix(".b.automerge") || file.hasSuffix(".c.automerge")
            || file.contains(".merged.") || file.contains(".merged-")
    }
}

/// A merge set's files merged flat in one order: the first loaded, each other merged into it.
struct MergeOrder: Sendable, CustomStringConvertible {
    let scenario: FixtureScenario
    /// Input letters, or `merged` for the set's merged result.
    let letters: [String]

    var description: String { "\(scenario.name) merge(\(letters.joined(separator: ",")))" }

    func merge() throws -> Document {
        var document = try Document.load(Fixtures.bytes(scenario.inputFile(letters[0])))
        for letter in letters.dropFirst() {
            try document.merge(Document.load(Fixtures.bytes(scenario.inputFile(letter))))
        }
        return document
    }

    /// Every permutation of every merge set's inputs.
    static func allFlatOrders() throws -> [MergeOrder] {
        try FixtureScenario.mergeSets().flatMap { scenario in
            permutations(of: scenario.inputs ?? []).map { MergeOrder(scenario: scenario, letters: $0) }
        }
    }

    private static func permutations(of items: [String]) -> [[String]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(of: rest).map { [first] + $0 }
        }
    }
}

/// One expression of a manifest's `merge_order_groups` and the file its saved result must equal:
/// that of the group's flat merge of the inputs which has a file.
struct GroupedMergeOrder: Sendable, CustomStringConvertible {
    let scenario: FixtureScenario
    let expression: MergeExpression
    let expectedFile: String

    var description: String { "\(scenario.name) \(expression)" }

    func evaluate(_ expression: MergeExpression) throws -> Document {
        switch expression {
        case .file(let letter):
            return try Document.load(Fixtures.bytes(scenario.inputFile(letter)))
        case .merge(let operands):
            guard let first = operands.first else { throw FixtureError("empty merge in \(self)") }
            var document = try evaluate(first)
            for operand in operands.dropFirst() {
                try document.merge(evaluate(operand))
            }
            return document
        }
    }

    static func all() throws -> [GroupedMergeOrder] {
        var orders: [GroupedMergeOrder] = []
        for scenario in try FixtureScenario.mergeSets() {
            for group in scenario.mergeOrderGroups ?? [] {
                let expressions = try group.map { try MergeExpression(parsing: $0) }
                let file = expressions.lazy.compactMap { expression in
                    expression.flatOrder.flatMap { $0.contains("merged") ? nil : scenario.mergedFile(forOrder: $0) }
                }.first
                guard let file else {
                    throw FixtureError("\(scenario.name): no merged file for the group \(group)")
                }
                orders += expressions.map { GroupedMergeOrder(scenario: scenario, expression: $0, expectedFile: file) }
            }
        }
        return orders
    }
}
