import AutomergeKit
import Foundation
import Testing
import TestSupport

/// Malformed inputs on which `make fuzz-diff` found minutafs and the reference (automerge 0.6.1)
/// disagreeing, kept in `Tests/Fixtures/verdicts/` with the reference's verdict written beside
/// each (`NAME.verdict`; format in that folder's README). Each must now get the reference's
/// verdict: refused with a typed error, or loaded to the reference's state and heads, then saved
/// as bytes that load again. A verdict file with a `minutafs: refused` line marks a deliberate
/// difference (README, "Deliberately stricter than the reference").
struct VerdictTests {
    static let folder = Fixtures.root + "/verdicts"

    struct Verdict: Sendable, CustomTestStringConvertible {
        var name: String
        var referenceRefuses: Bool
        var reason: String?
        var json: String?
        var heads: [String]
        var changes: [String] = []
        var saved: String?
        var deliberatelyRefused: Bool
        var testDescription: String { name }
    }

    static func verdicts() throws -> [Verdict] {
        try Fixtures.names(withExtension: "verdict", in: "verdicts").map { file in
            let text = try Fixtures.text(file, in: "verdicts")
            var verdict = Verdict(
                name: String(file.dropLast(".verdict".count)), referenceRefuses: false, reason: nil, json: nil,
                heads: [], deliberatelyRefused: false)
            for line in text.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
                guard let colon = line.firstIndex(of: ":") else {
                    Issue.record("\(file): a line without a key: \(line)")
                    continue
                }
                let key = line[..<colon]
                let value = line[line.index(after: colon)...].drop(while: { $0 == " " })
                switch key {
                case "reference": verdict.referenceRefuses = value == "refused"
                case "reason": verdict.reason = String(value)
                case "json": verdict.json = String(value)
                case "head": verdict.heads.append(String(value))
                case "change": verdict.changes.append(String(value))
                case "saved": verdict.saved = String(value)
                case "minutafs": verdict.deliberatelyRefused = value.hasPrefix("refused")
                default: Issue.record("\(file): unknown line \(line)")
                }
            }
            return verdict
        }
    }

    @Test("every malformed input gets the reference's verdict", arguments: try verdicts())
    func sameVerdict(verdict: Verdict) throws {
        let bytes = try Fixtures.bytes(verdict.name + ".automerge", in: "verdicts")
        if verdict.referenceRefuses || verdict.deliberatelyRefused {
            #expect(throws: AutomergeError.self, "the reference: \(verdict.reason ?? "accepts it")") { try Document.load(bytes) }
            return
        }
        let document: Document
        do {
            document = try Document.load(bytes)
        } catch {
            Issue.record("refused (\(error)); the reference loads it")
            return
        }
        #expect(document.typedJSON() == verdict.json)
        #expect(document.heads.map(\.hexString).sorted() == verdict.heads)
        if !verdict.changes.isEmpty { #expect(document.changeLines() == verdict.changes) }
        if let saved = verdict.saved {
            var copy = document
            #expect(try copy.save() == (try Fixtures.bytes(saved, in: "verdicts")), "the reference's save is \(saved)")
        }
        #expect(LoadPromise.broken(by: bytes) == nil)
    }
}
