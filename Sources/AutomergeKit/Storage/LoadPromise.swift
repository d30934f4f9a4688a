/// What `Document.load` promises for any bytes at all: a typed `AutomergeError`, or a document that
/// is usable (read, re-saved, re-loaded to the same heads and bytes, merged into another document
/// that then saves and loads). A save may refuse with a typed error (`unsavableValue`: a document
/// chunk cannot hold the changes' times); then nothing is written, which keeps the promise.
///
/// The fuzz target (`minutafs-fuzz`) traps on a broken promise; the tests (`MutationTests`,
/// `FuzzRegressionTests`) expect none. Both ask this one check, so they cannot drift apart.
public enum LoadPromise {
    /// How a document that loaded broke the promise.
    public enum Broken: Error, Equatable, CustomStringConvertible {
        /// The saved bytes of a loaded document do not load; `error` is what loading them gave.
        case savedBytesDoNotLoad(error: AutomergeError)
        /// Re-loading a saved document gave other heads.
        case reloadChangedHeads
        /// Saving a re-loaded document gave other bytes than the first save.
        case resaveChangedBytes
        /// A document merged into an empty one saved as bytes that do not load.
        case mergedBytesDoNotLoad(error: AutomergeError)

        public var description: String {
            switch self {
            case .savedBytesDoNotLoad(let error): "a document that loaded was saved as bytes that do not load: \(error)"
            case .reloadChangedHeads: "re-loading a saved document changed its heads"
            case .resaveChangedBytes: "saving a re-loaded document changed its bytes"
            case .mergedBytesDoNotLoad(let error): "a merged document was saved as bytes that do not load: \(error)"
            }
        }
    }

    /// Checks `bytes` as they are and, when that differs, with every chunk's checksum recomputed
    /// (`ChunkTesting.rechecksummed`), so damage reaches the parsers behind the checksum check.
    /// Returns the first broken promise, or `nil` when both kept it.
    public static func brokenByEitherForm(of bytes: [UInt8]) -> Broken? {
        if let broken = broken(by: bytes) { return broken }
        let rehashed = ChunkTesting.rechecksummed(bytes)
        return rehashed == bytes ? nil : broken(by: rehashed)
    }

    /// Checks `bytes` as they are: `nil` when loading gives a typed error or a usable document.
    public static func broken(by bytes: [UInt8]) -> Broken? {
        guard var document = try? Document.load(bytes) else { return nil }
        _ = document.typedJSON()
        _ = document.conflictLines()
        _ = document.changeLines()
        // A refused save writes nothing: no bytes that do not load.
        guard let saved = try? document.save() else { return nil }
        var reloaded: Document
        do {
            reloaded = try Document.load(saved)
        } catch {
            return .savedBytesDoNotLoad(error: error)
        }
        guard reloaded.heads == document.heads else { return .reloadChangedHeads }
        guard (try? reloaded.save()) == saved else { return .resaveChangedBytes }
        // Merged into another document, as a conflict copy is merged into its primary.
        var primary = Document()
        guard (try? primary.merge(document)) != nil else { return nil }
        do {
            // A refused save is kept too (the merge brought two times too far apart to encode).
            guard let merged = try? primary.save() else { return nil }
            _ = try Document.load(merged)
        } catch {
            return .mergedBytesDoNotLoad(error: error)
        }
        return nil
    }
}
