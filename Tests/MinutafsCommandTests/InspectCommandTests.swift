import Testing
import TestSupport

/// `minutafs inspect`, run as a user runs it (SPEC §6).
struct InspectCommandTests {
    @Test("inspect prints a reference document's typed JSON",
          arguments: try Fixtures.referenceDocumentNames())
    func typedJSON(name: String) throws {
        try expectOutput(of: ["inspect", Fixtures.path("\(name).automerge")], equalTo: "\(name).json")
    }

    @Test("inspect --heads prints a reference document's heads",
          arguments: try Fixtures.referenceDocumentNames())
    func heads(name: String) throws {
        try expectOutput(of: ["inspect", "--heads", Fixtures.path("\(name).automerge")], equalTo: "\(name).heads")
    }

    @Test("inspect --changes prints a reference document's history",
          arguments: try Fixtures.referenceDocumentNames().filter { try Fixtures.exists("\($0).changes") })
    func changes(name: String) throws {
        try expectOutput(of: ["inspect", "--changes", Fixtures.path("\(name).automerge")], equalTo: "\(name).changes")
    }

    @Test("inspect --conflicts prints a reference document's conflicts",
          arguments: try Fixtures.referenceDocumentNames().filter { try Fixtures.exists("\($0).conflicts") })
    func conflicts(name: String) throws {
        try expectOutput(of: ["inspect", "--conflicts", Fixtures.path("\(name).automerge")], equalTo: "\(name).conflicts")
    }

    @Test("inspect of a damaged document fails with one line naming the file",
          arguments: try FixtureExpectation.rows(in: "corrupt").filter { $0.verdict == .error })
    func damagedDocument(expectation: FixtureExpectation) throws {
        let path = try Fixtures.path(expectation.path)
        try expectOneLineFailure(of: ["inspect", path], naming: path)
    }

    @Test("inspect of a file that cannot be read fails with one line naming the file and the cause")
    func unreadableFile() throws {
        try withTemporaryDirectory { folder in
            let missing = folder + "/missing.automerge"
            let result = try expectOneLineFailure(of: ["inspect", missing], naming: missing)
            #expect(result.errorText.contains("No such file or directory"))
            try expectOneLineFailure(of: ["inspect", folder], naming: folder)
        }
    }

    @Test("inspect accepts only one of --heads, --changes and --conflicts")
    func exclusiveViews() throws {
        let result = try MinutafsBinary.run(["inspect", "--heads", "--changes", Fixtures.path("types.automerge")])
        #expect(result.status != 0)
        #expect(result.outputText.isEmpty)
    }

    private func expectOutput(of arguments: [String], equalTo expectedFile: String) throws {
        let result = try MinutafsBinary.run(arguments)
        #expect(result.status == 0, "\(result.errorText)")
        #expect(result.errorText.isEmpty)
        #expect(ByteDifference(actual: result.standardOutput, expected: try Fixtures.bytes(expectedFile)) == nil)
    }
}
