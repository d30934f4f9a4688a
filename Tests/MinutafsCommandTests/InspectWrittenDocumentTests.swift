import Foundation
import Testing
import TestSupport

/// `minutafs inspect` on documents our own engine wrote (a merge and a demo store), checked against
/// what the reference wrote for the same merge.
struct InspectWrittenDocumentTests {
    @Test("inspect of a document merged by minutafs shows the reference's merged state, heads and history")
    func mergedByUs() throws {
        try withTemporaryDirectory { folder in
            let output = folder + "/merged.automerge"
            let merge = try MinutafsBinary.run(["doc", "merge", "-o", output,
                                                Fixtures.path("three-way.a.automerge"), Fixtures.path("three-way.c.automerge"), Fixtures.path("three-way.b.automerge")])
            #expect(merge.status == 0, "\(merge.errorText)")
            let json = try MinutafsBinary.run(["inspect", output])
            #expect(json.standardOutput == (try Fixtures.bytes("three-way.merged.json")))
            let heads = try MinutafsBinary.run(["inspect", "--heads", output])
            #expect(heads.standardOutput == (try Fixtures.bytes("three-way.merged.heads")))
            let conflicts = try MinutafsBinary.run(["inspect", "--conflicts", output])
            #expect(conflicts.standardOutput == (try Fixtures.bytes("three-way.merged.conflicts")))
            // The history lists the same changes as the reference's, in this merge's order.
            let changes = try MinutafsBinary.run(["inspect", "--changes", output]).outputText.split(separator: "\n")
            let reference = try Fixtures.text("three-way.merged.changes").split(separator: "\n")
            #expect(Set(changes) == Set(reference) && changes.count == reference.count)
        }
    }

    @Test("inspect reads every document of a demo store")
    func demoStore() throws {
        try withTemporaryDirectory { folder in
            let demo = try MinutafsBinary.run(["demo", folder + "/store"])
            #expect(demo.status == 0, "\(demo.errorText)")
            let documents = FileManager.default.enumerator(atPath: folder + "/store")?.compactMap { $0 as? String }
                .filter { $0.hasSuffix(".automerge") && !$0.contains("conflicted copy") } ?? []
            #expect(documents.count >= 13)
            for document in documents {
                let result = try MinutafsBinary.run(["inspect", folder + "/store/" + document])
                #expect(result.status == 0, "\(document): \(result.errorText)")
                #expect((try? JSONSerialization.jsonObject(with: Data(result.standardOutput))) != nil, "\(document)")
            }
        }
    }
}
