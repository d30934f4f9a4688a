import AutomergeKit
import Foundation
import Testing
import TestSupport

/// A document's state at past heads equals the reference's (`Tests/Fixtures/history/README.md`).
struct PastStateTests {
    /// The fixtures with a dump at each change: `Tests/Fixtures/history/NAME.at`.
    static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Fixtures.directory("history"))
            .filter { $0.hasSuffix(".at") }.map { String($0.dropLast(3)) }.sorted()
    }

    @Test("the state at each change's heads is the reference's typed JSON at those heads", arguments: try names())
    func stateAtEachChange(name: String) throws {
        let document = try Document.load(Fixtures.bytes("\(name).automerge"))
        let lines = String(decoding: try Fixtures.bytes("\(name).at", in: "history"), as: UTF8.self).split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            let fields = line.split(separator: "\t", maxSplits: 1)
            let hash = try #require(ChangeHash(hexString: String(fields[0])))
            let past = try document.state(atHeads: [hash])
            #expect(past.heads == [hash], "\(name) at \(fields[0])")
            #expect(past.typedJSON() == String(fields[1]), "\(name) at \(fields[0])")
        }
    }

    @Test("the state at no heads is empty, at the current heads the document itself")
    func emptyAndFull() throws {
        let document = try Document.load(Fixtures.bytes("minuta-month.automerge"))
        #expect(try document.state(atHeads: []).typedJSON() == "{}")
        #expect(try document.state(atHeads: document.heads).typedJSON() == document.typedJSON())
    }

    @Test("a set of changes that lacks a dependency is refused")
    func incompleteSetRefused() throws {
        let document = try Document.load(Fixtures.bytes("minuta-month.automerge"))
        let last = try #require(document.changes.last)
        #expect(throws: AutomergeError.self) { try document.state(including: [last.hash]) }
        #expect(throws: AutomergeError.self) { try document.state(atHeads: [#require(ChangeHash(hexString: String(repeating: "07", count: 32)))]) }
    }

    @Test("the change timeline read from a saved file has the loaded document's change times and dependencies", arguments: try names())
    func changeTimeline(name: String) throws {
        let bytes = try Fixtures.bytes("\(name).automerge")
        let document = try Document.load(bytes)
        guard let timeline = try Document.changeTimeline(ofFile: bytes) else {
            // Only files that are not one document chunk have none.
            #expect(name.hasSuffix("-changes") || name.hasSuffix("-incremental"), "\(name)")
            return
        }
        let changes = document.changes
        #expect(timeline.times.count == changes.count)
        #expect(timeline.times.sorted() == changes.map(\.time).sorted())
        #expect(timeline.dependencies.map(\.count).sorted() == changes.map(\.dependencies.count).sorted())
    }
}
