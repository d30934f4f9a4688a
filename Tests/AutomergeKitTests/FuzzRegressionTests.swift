import AutomergeKit
import Foundation
import Testing
import TestSupport

/// Inputs `make fuzz` found to break a promise of `Document.load`, kept in `Tests/Fixtures/fuzz/`
/// as libFuzzer wrote them. Each must give a typed error or a usable document, as the fuzz target
/// checks: as it is and with its checksums recomputed (the fuzz target tries both).
struct FuzzRegressionTests {
    static let folder = Fixtures.root + "/fuzz"

    static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test("every fuzz crash file is a typed error or a document that saves, reloads and merges", arguments: try names())
    func crashFile(name: String) throws {
        let bytes = try Fixtures.contents(ofFileAtPath: Self.folder + "/" + name)
        let broken = LoadPromise.brokenByEitherForm(of: bytes)
        #expect(broken == nil, "\(name): \(broken.map(String.init(describing:)) ?? "")")
    }

    /// An input the reference applies although the document would then save as bytes no loader
    /// accepts; we refuse it with `kind`.
    struct RefusedInput: Sendable, CustomTestStringConvertible {
        var file: String
        var kind: AutomergeError.Kind
        var testDescription: String { file }
    }

    static let refusedInputs: [RefusedInput] = [
        // The 99th change claims to be its actor's 1651st, starting at op 2: sequence number and op
        // counters jump back ("changes out of order" once saved).
        RefusedInput(file: "changes-out-of-order.automerge", kind: .invalidOperation),
        // Two bytes in a raw value column that no value metadata describes: the document stores the
        // change re-encoded without them, so its hash changes ("mismatching heads" once saved).
        RefusedInput(file: "value-column-stray-bytes.automerge", kind: .invalidColumns),
        // A deletion of "'mages" naming the value of "images" as its predecessor (one byte of a key
        // changed): the reference ignores the predecessor and keeps the deletion nowhere.
        RefusedInput(file: "predecessor-at-another-key.automerge", kind: .invalidOperation),
        // Nine deletions carrying empty strings (a value metadata byte changed): a document keeps
        // deletions only as successors and makes them again without values.
        RefusedInput(file: "deletion-with-a-value.automerge", kind: .invalidOperation),
        // Actions swapped so that a list is made where a map was, and the next op sets the map key
        // "startTime" in the list.
        RefusedInput(file: "map-key-in-a-list.automerge", kind: .invalidOperation),
    ]

    @Test("a change the reference applies but could not save and load again is refused", arguments: refusedInputs)
    func refused(input: RefusedInput) throws {
        let bytes = ChunkTesting.rechecksummed(try Fixtures.contents(ofFileAtPath: Self.folder + "/" + input.file))
        #expect(throws: AutomergeError.self) { try Document.load(bytes) }
        do { _ = try Document.load(bytes) } catch { #expect(error.kind == input.kind) }
    }
}
