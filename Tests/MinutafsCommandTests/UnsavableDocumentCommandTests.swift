import Foundation
import Testing
import TestSupport

/// A document whose changes carry times at both ends of `Int64` loads from its change chunks, but no
/// document chunk can hold it (the reference writes one anyway, which no loader accepts). `doc
/// compact`, `doc merge` and `merge` never write such a save: they name the change and leave every
/// file as it was (SPEC 5a).
struct UnsavableDocumentCommandTests {
    /// Three change chunks with times -2^63, 2^63-1, -2^63 (`Tests/Fixtures/edges/`).
    static func ends() throws -> [UInt8] { try Fixtures.bytes("int64-ends.changes.automerge", in: "edges") }
    /// The change whose time cannot follow the one before it in a document chunk.
    static let unsavableChange = "9c69d1bf71178b999d3a17e986444e3b9e29ef1e6494d9761bc5c2d0ac78dcd8"

    @Test("doc compact in place and with -o refuses, naming the change, and leaves the input as it was and writes nothing")
    func compactRefuses() throws {
        try withTemporaryDirectory { folder in
            let document = folder + "/06.automerge"
            let bytes = try Self.ends()
            try Data(bytes).write(to: URL(fileURLWithPath: document))
            for arguments in [["doc", "compact", document], ["doc", "compact", document, "-o", folder + "/out.automerge"]] {
                let result = try MinutafsBinary.run(arguments)
                #expect(result.status == 1, "\(arguments): \(result.errorText)")
                #expect(result.errorText.contains("cannot be saved") && result.errorText.contains(Self.unsavableChange), "\(arguments): \(result.errorText)")
                #expect(try Fixtures.contents(ofFileAtPath: document) == bytes, "\(arguments) changed the input")
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["06.automerge"], "\(arguments) left a file")
            }
            // The input still loads as it did.
            let inspect = try MinutafsBinary.run(["inspect", document, "--heads"])
            #expect(inspect.status == 0, "\(inspect.errorText)")
        }
    }

    @Test("doc merge of a month and such a document refuses, naming the change; an output that is one of the inputs is unchanged")
    func mergeRefuses() throws {
        try withTemporaryDirectory { folder in
            let month = folder + "/01.automerge"
            let monthBytes = try Fixtures.contents(ofFileAtPath: try Fixtures.directory("stores") + "/app-2024/records/2024/01.automerge")
            try Data(monthBytes).write(to: URL(fileURLWithPath: month))
            let ends = folder + "/ends.automerge"
            try Data(try Self.ends()).write(to: URL(fileURLWithPath: ends))
            for output in [folder + "/merged.automerge", month] {
                let result = try MinutafsBinary.run(["doc", "merge", "-o", output, month, ends])
                #expect(result.status == 1, "\(result.errorText)")
                #expect(result.errorText.contains("cannot be saved") && result.errorText.contains("change "), "\(result.errorText)")
                #expect(try Fixtures.contents(ofFileAtPath: month) == monthBytes)
                #expect(!FileManager.default.fileExists(atPath: folder + "/merged.automerge"))
            }
        }
    }

    @Test("merge leaves a conflict copy carrying such changes where it is, unmerged, names it and the change, and merges the other copies")
    func storeMergeLeavesCopy() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/store"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
            let permissions = try runBounded(["chmod", "-R", "u+w", store])
            #expect(permissions.status == 0, "\(permissions.output)")
            let january = store + "/records/2024/01.automerge"
            let januaryBytes = try Fixtures.contents(ofFileAtPath: january)
            let brokenCopy = store + "/records/2024/01 (Alice's conflicted copy 2024-01-15).automerge"
            try Data(try Self.ends()).write(to: URL(fileURLWithPath: brokenCopy))
            // An ordinary copy of February's beside it is still merged.
            let goodCopy = store + "/records/2024/02 (Alice's conflicted copy 2024-01-15).automerge"
            try FileManager.default.copyItem(atPath: store + "/records/2024/02.automerge", toPath: goodCopy)

            let result = try MinutafsBinary.run(["merge", store])
            #expect(result.status == 1, "\(result.outputText) \(result.errorText)")
            #expect(result.outputText.contains("left records/2024/01 (Alice's conflicted copy 2024-01-15).automerge as it is"), "\(result.outputText)")
            #expect(result.outputText.contains("cannot be saved") && result.outputText.contains("change "), "\(result.outputText)")
            #expect(try Fixtures.contents(ofFileAtPath: january) == januaryBytes, "January was rewritten")
            #expect(FileManager.default.fileExists(atPath: brokenCopy), "the copy was removed")
            #expect(!FileManager.default.fileExists(atPath: store + "/.minutafs-quarantine"), "the copy, which loads, was quarantined")
            #expect(!FileManager.default.fileExists(atPath: goodCopy), "the ordinary copy was not merged")
            // January still loads, and check names the copy still waiting.
            let check = try MinutafsBinary.run(["check", store])
            #expect(check.outputText.contains("01 (Alice's conflicted copy 2024-01-15).automerge: conflict copy of records/2024/01.automerge waiting"), "\(check.outputText)")
            #expect(!check.outputText.contains("records/2024/01.automerge: cannot be loaded"), "\(check.outputText)")
        }
    }
}
