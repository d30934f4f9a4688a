import AutomergeKit
import Testing
import TestSupport

/// Loading the reference implementation's files (`Tests/Fixtures/automerge/README.md`).
struct FixtureLoadTests {
    @Test("a reference document loads to the reference's typed JSON and heads",
          arguments: try Fixtures.referenceDocumentNames())
    func stateAndHeads(name: String) throws {
        let document = try Document.load(Fixtures.bytes("\(name).automerge"))
        #expect(ByteDifference(actual: document.typedJSON() + "\n", expected: try Fixtures.bytes("\(name).json")) == nil)
        #expect(ByteDifference(actualLines: document.heads.map(\.hexString), expected: try Fixtures.bytes("\(name).heads")) == nil)
    }

    @Test("a reference document loads to the reference's change history",
          arguments: try Fixtures.referenceDocumentNames().filter { try Fixtures.exists("\($0).changes") })
    func changeHistory(name: String) throws {
        let document = try Document.load(Fixtures.bytes("\(name).automerge"))
        #expect(ByteDifference(actualLines: document.changeLines(), expected: try Fixtures.bytes("\(name).changes")) == nil)
    }

    @Test("a reference document loads to the reference's conflicts",
          arguments: try Fixtures.referenceDocumentNames().filter { try Fixtures.exists("\($0).conflicts") })
    func conflicts(name: String) throws {
        let document = try Document.load(Fixtures.bytes("\(name).automerge"))
        #expect(ByteDifference(actualLines: document.conflictLines(), expected: try Fixtures.bytes("\(name).conflicts")) == nil)
    }

    @Test("a damaged document gives the reference's verdict",
          arguments: try FixtureExpectation.rows(in: "corrupt"))
    func corruptVerdict(expectation: FixtureExpectation) throws {
        try checkVerdict(expectation)
    }

    @Test("an upstream Automerge test file gives the reference's verdict",
          arguments: try FixtureExpectation.rows(in: "upstream"))
    func upstreamVerdict(expectation: FixtureExpectation) throws {
        try checkVerdict(expectation)
    }

    /// ERROR rows must throw an `AutomergeError`; OK rows must load and, where a `.json` sits
    /// beside the file, give that state.
    private func checkVerdict(_ expectation: FixtureExpectation) throws {
        let bytes = try Fixtures.bytes(expectation.path)
        switch expectation.verdict {
        case .error:
            #expect(throws: AutomergeError.self, "\(expectation.what)") { try Document.load(bytes) }
        case .ok:
            let document = try Document.load(bytes)
            if try Fixtures.exists(expectation.jsonPath) {
                #expect(ByteDifference(actual: document.typedJSON() + "\n", expected: try Fixtures.bytes(expectation.jsonPath)) == nil)
            }
        }
    }
}
