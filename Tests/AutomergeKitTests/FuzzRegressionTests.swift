import AutomergeKit
import Foundation
import Testing
import TestSupport

/// Inputs `make fuzz` found to break a promise of `Document.load`, kept in `Tests/Fixtures/fuzz/`
/// as libFuzzer wrote them. Each must give a typed error or a usable document, as the fuzz target
/// checks: as it is and with its checksums recomputed (the fuzz target tries both).
struct FuzzRegressionTests {
    static let folder = Fixtures.packageRoot + "/Tests/Fixtures/fuzz"

    static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test("every fuzz crash file is a typed error or a document that saves, reloads and merges", arguments: try names())
    func crashFile(name: String) throws {
        let bytes = try Fixtures.contents(ofFileAtPath: Self.folder + "/" + name)
        for input in [bytes, ChunkTesting.rechecksummed(bytes)] {
            let document: Document
            do { document = try Document.load(input) } catch { continue }
            var copy = document
            let saved = copy.save()
            var reloaded = try Document.load(saved)
            #expect(reloaded.heads == document.heads)
            #expect(reloaded.save() == saved)
            var primary = Document()
            try primary.merge(document)
            _ = try Document.load(primary.save())
        }
    }

    /// A change chunk whose sequence number and op counters jump back (the 99th change of the
    /// file claims to be its actor's 1651st, starting at op 2). The reference applies it, and the
    /// document then saves as bytes no loader accepts.
    @Test("a change that does not follow its actor's previous change is refused")
    func changeOutOfOrder() throws {
        let bytes = ChunkTesting.rechecksummed(try Fixtures.contents(ofFileAtPath: Self.folder + "/changes-out-of-order.automerge"))
        #expect(throws: AutomergeError.self) { try Document.load(bytes) }
        do { _ = try Document.load(bytes) } catch { #expect(error.kind == .invalidOperation) }
    }

    /// A change chunk whose raw value column holds two bytes no value metadata describes. The
    /// reference applies it; the document then stores the change re-encoded without them, so its
    /// hash changes and the saved document no longer loads ("mismatching heads").
    @Test("a change not encoded as its operations encode is refused")
    func nonCanonicalChange() throws {
        let bytes = ChunkTesting.rechecksummed(try Fixtures.contents(ofFileAtPath: Self.folder + "/value-column-stray-bytes.automerge"))
        #expect(throws: AutomergeError.self) { try Document.load(bytes) }
        do { _ = try Document.load(bytes) } catch { #expect(error.kind == .invalidColumns) }
    }

    /// A change whose deletion names, as its predecessor, the value of another key (one byte of a key
    /// name changed: it deletes "'mages" with the predecessor of "images"). The reference ignores the
    /// predecessor and keeps the deletion nowhere, so the document saves without it and its saved
    /// bytes no longer load ("mismatching heads").
    @Test("an operation whose predecessor is not at its key is refused")
    func predecessorAtAnotherKey() throws {
        let bytes = ChunkTesting.rechecksummed(try Fixtures.contents(ofFileAtPath: Self.folder + "/predecessor-at-another-key.automerge"))
        #expect(throws: AutomergeError.self) { try Document.load(bytes) }
        do { _ = try Document.load(bytes) } catch { #expect(error.kind == .invalidOperation) }
    }

    /// A change whose nine deletions carry empty strings as values (a value metadata byte changed).
    /// A document keeps deletions only as successors and makes them again without values when
    /// loaded, so the reference, which applies the change, saves a document that no longer loads.
    @Test("a deletion that carries a value is refused")
    func deletionWithValue() throws {
        let bytes = ChunkTesting.rechecksummed(try Fixtures.contents(ofFileAtPath: Self.folder + "/deletion-with-a-value.automerge"))
        #expect(throws: AutomergeError.self) { try Document.load(bytes) }
        do { _ = try Document.load(bytes) } catch { #expect(error.kind == .invalidOperation) }
    }

    /// A change whose first operation makes a list where it made a map (actions swapped), so the next
    /// one sets the map key "startTime" in a list. The reference keeps it; the saved document then
    /// no longer loads ("mismatching heads").
    @Test("an operation whose key its object cannot hold is refused")
    func mapKeyInList() throws {
        let bytes = ChunkTesting.rechecksummed(try Fixtures.contents(ofFileAtPath: Self.folder + "/map-key-in-a-list.automerge"))
        #expect(throws: AutomergeError.self) { try Document.load(bytes) }
        do { _ = try Document.load(bytes) } catch { #expect(error.kind == .invalidOperation) }
    }
}
