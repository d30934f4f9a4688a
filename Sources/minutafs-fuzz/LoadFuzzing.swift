import AutomergeKit

/// What the fuzzer does with one input: `Document.load` must keep `LoadPromise` (a typed error or
/// a usable document), as it is and with every chunk's checksum recomputed, so mutations reach
/// the parsers behind the checksum check instead of stopping at it. The tests ask the same check.
enum LoadFuzzing {
    /// Runs every check on `bytes`; a broken promise traps, which libFuzzer reports as a crash.
    static func exercise(_ bytes: [UInt8]) {
        if let broken = LoadPromise.brokenByEitherForm(of: bytes) {
            preconditionFailure(broken.description)
        }
        SyncMessageFuzzing.exercise(bytes)
    }
}
