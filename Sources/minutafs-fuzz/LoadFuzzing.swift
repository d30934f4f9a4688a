import AutomergeKit

/// What the fuzzer does with one input: `Document.load` must give a typed error or a document,
/// and a document that loads must be usable (read, re-saved, re-loaded to the same bytes, merged
/// into another document that then saves and loads).
///
/// Each input is tried twice: as it is, and with every chunk's checksum recomputed, so mutations
/// reach the parsers behind the checksum check instead of stopping at it.
enum LoadFuzzing {
    /// Runs every check on `bytes`; a broken promise traps, which libFuzzer reports as a crash.
    static func exercise(_ bytes: [UInt8]) {
        check(bytes)
        let rehashed = ChunkTesting.rechecksummed(bytes)
        if rehashed != bytes { check(rehashed) }
    }

    private static func check(_ bytes: [UInt8]) {
        guard var document = try? Document.load(bytes) else { return }
        _ = document.typedJSON()
        _ = document.conflictLines()
        _ = document.changeLines()
        let saved = document.save()
        let reloadedResult = Result { () throws(AutomergeError) in try Document.load(saved) }
        guard case .success(var reloaded) = reloadedResult else {
            preconditionFailure("a document that loaded was saved as bytes that do not load: \(reloadedResult)")
        }
        guard reloaded.heads == document.heads else {
            preconditionFailure("re-loading a saved document changed its heads")
        }
        precondition(reloaded.save() == saved, "saving a re-loaded document changed its bytes")
        // Merged into another document, as a conflict copy is merged into its primary.
        var primary = Document()
        guard (try? primary.merge(document)) != nil else { return }
        let mergedResult = Result { () throws(AutomergeError) in try Document.load(primary.save()) }
        if case .failure(let error) = mergedResult {
            preconditionFailure("a merged document was saved as bytes that do not load: \(error)")
        }
    }
}
