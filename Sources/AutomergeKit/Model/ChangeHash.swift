/// The SHA-256 of a change chunk: the identity of a change.
public struct ChangeHash: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }

    public init?(hexString: String) {
        guard let bytes = HexEncoding.bytes(hexString), bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// The first eight bytes: a change hash is a SHA-256, so they are as good as all 32 (and the
    /// keys a document stores are hashes it computed itself).
    public func hash(into hasher: inout Hasher) {
        var word: UInt64 = 0
        for index in 0..<min(8, bytes.count) { word = word << 8 | UInt64(bytes[index]) }
        hasher.combine(word)
    }

    public var hexString: String { HexEncoding.string(bytes) }
    public var description: String { hexString }

    public static func < (left: ChangeHash, right: ChangeHash) -> Bool { bytesPrecede(left.bytes, right.bytes) }
}
