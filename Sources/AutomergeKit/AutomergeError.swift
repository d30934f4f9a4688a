/// Everything that can go wrong when the engine reads bytes or is asked to do something impossible.
///
/// `description` is one line a person can act on; `offset`, when known, is the byte in the input where
/// the problem was found.
public struct AutomergeError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The input ended before a value or a chunk was complete.
        case truncated
        /// The bytes do not start with the Automerge magic bytes.
        case invalidMagicBytes
        /// A chunk's stored checksum does not match its contents.
        case checksumMismatch
        /// A chunk type other than document (0), change (1) or compressed change (2).
        case unknownChunkType
        /// A LEB128 number that is overlong or does not fit in 64 bits.
        case invalidLEB128
        /// A DEFLATE stream that could not be inflated.
        case invalidDeflateStream
        /// Column metadata or column contents that are malformed.
        case invalidColumns
        /// An operation that is malformed or refers to something that does not exist.
        case invalidOperation
        /// A change whose dependencies are not in the document.
        case missingDependency
        /// A document chunk whose stored heads differ from the heads of its changes.
        case mismatchingHeads
        /// A change or operation that refers to an actor the chunk does not list.
        case missingActor
        /// A value that breaks the format's rules (bad UTF-8, wrong length, too large).
        case invalidValue
        /// A caller asked for something impossible (an index out of range, a missing object).
        case invalidArgument
        /// A save whose columns cannot hold a value of the document: a delta-encoded column whose
        /// difference from the previous row does not fit in 64 bits (changes whose times lie at both
        /// ends of `Int64`). The reference writes such a save anyway, and no loader accepts it
        /// ("mismatching heads"); this engine refuses to encode it, so it is never written (SPEC 5a).
        case unsavableValue
    }

    public let kind: Kind
    public let offset: Int?
    public let message: String

    public init(_ kind: Kind, _ message: String, at offset: Int? = nil) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }

    public var description: String {
        if let offset { return "byte \(offset): \(message)" }
        return message
    }

    static func truncated(at offset: Int, needed: Int) -> AutomergeError {
        AutomergeError(.truncated, "unexpected end of data, \(needed) more byte\(needed == 1 ? "" : "s") needed", at: offset)
    }
}
