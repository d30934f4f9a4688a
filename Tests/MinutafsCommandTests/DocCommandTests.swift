import Foundation
import Testing
import TestSupport

/// `minutafs doc compact` and `minutafs doc merge` (SPEC §6).
struct DocCommandTests {
    @Test("doc compact -o writes the reference's re-save",
          arguments: try Fixtures.names(withExtension: "saved.automerge").map { String($0.dropLast(".saved.automerge".count)) })
    func compactToOutput(name: String) throws {
        try withTemporaryDirectory { folder in
            let output = folder + "/out.automerge"
            let result = try MinutafsBinary.run(["doc", "compact", Fixtures.path("\(name).automerge"), "-o", output])
            #expect(result.status == 0, "\(result.errorText)")
            #expect(ByteDifference(actual: try Fixtures.contents(ofFileAtPath: output),
                                   expected: try Fixtures.bytes("\(name).saved.automerge")) == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.automerge"])
        }
    }

    @Test("doc compact without -o replaces the input in place and leaves no temporary file")
    func compactInPlace() throws {
        try withTemporaryDirectory { folder in
            let document = folder + "/03.automerge"
            try Data(Fixtures.bytes("minuta-month-incremental.automerge")).write(to: URL(fileURLWithPath: document))
            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: document)
            let result = try MinutafsBinary.run(["doc", "compact", document])
            #expect(result.status == 0, "\(result.errorText)")
            #expect(result.errorText.isEmpty)
            #expect(ByteDifference(actual: try Fixtures.contents(ofFileAtPath: document),
                                   expected: try Fixtures.bytes("minuta-month-incremental.saved.automerge")) == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["03.automerge"])
            let permissions = try FileManager.default.attributesOfItem(atPath: document)[.posixPermissions] as? Int
            #expect(permissions == 0o640)
        }
    }

    @Test("doc compact of a damaged document fails with one line and leaves the file as it was")
    func compactDamaged() throws {
        try withTemporaryDirectory { folder in
            let document = folder + "/03.automerge"
            let damaged = try Fixtures.bytes("corrupt/trunc-02873.automerge")
            try Data(damaged).write(to: URL(fileURLWithPath: document))
            try expectOneLineFailure(of: ["doc", "compact", document], naming: document)
            #expect(try Fixtures.contents(ofFileAtPath: document) == damaged)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["03.automerge"])
        }
    }

    @Test("doc merge -o writes the reference's merge in the listed order",
          arguments: try FixtureScenario.mergeSets())
    func merge(scenario: FixtureScenario) throws {
        try withTemporaryDirectory { folder in
            let output = folder + "/merged.automerge"
            let inputs = try (scenario.inputs ?? []).map { try Fixtures.path(scenario.inputFile($0)) }
            let result = try MinutafsBinary.run(["doc", "merge", "-o", output] + inputs)
            #expect(result.status == 0, "\(result.errorText)")
            #expect(ByteDifference(actual: try Fixtures.contents(ofFileAtPath: output),
                                   expected: try Fixtures.bytes("\(scenario.name).merged.automerge")) == nil)
        }
    }

    @Test("doc merge can write over its first input")
    func mergeIntoFirstInput() throws {
        try withTemporaryDirectory { folder in
            let first = folder + "/01.automerge"
            let copy = folder + "/01 (conflicted copy).automerge"
            try Data(Fixtures.bytes("concurrent-same-field.a.automerge")).write(to: URL(fileURLWithPath: first))
            try Data(Fixtures.bytes("concurrent-same-field.b.automerge")).write(to: URL(fileURLWithPath: copy))
            let result = try MinutafsBinary.run(["doc", "merge", "-o", first, first, copy])
            #expect(result.status == 0, "\(result.errorText)")
            #expect(ByteDifference(actual: try Fixtures.contents(ofFileAtPath: first),
                                   expected: try Fixtures.bytes("concurrent-same-field.merged.automerge")) == nil)
        }
    }

    @Test("doc merge of a damaged input fails with one line naming it and writes nothing")
    func mergeDamaged() throws {
        try withTemporaryDirectory { folder in
            let output = folder + "/merged.automerge"
            let damaged = try Fixtures.path("corrupt/flip-checksum.automerge")
            try expectOneLineFailure(
                of: ["doc", "merge", "-o", output, Fixtures.path("minuta-month.automerge"), damaged], naming: damaged)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        }
    }

    @Test("doc merge needs at least two inputs")
    func mergeNeedsTwoInputs() throws {
        let result = try MinutafsBinary.run(["doc", "merge", "-o", "/tmp/unused.automerge", Fixtures.path("types.automerge")])
        #expect(result.status != 0 && result.status != 1)
        #expect(result.errorText.contains("at least two"))
    }
}
