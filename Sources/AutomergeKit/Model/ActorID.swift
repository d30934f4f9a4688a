/// The identity of one writer of a document: opaque bytes, usually 16 random ones.
public struct ActorID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Parses lowercase or uppercase hex; `nil` when the text is not hex.
    public init?(hexString: String) {
        guard let bytes = HexEncoding.bytes(hexString), !bytes.isEmpty else { return nil }
        self.bytes = bytes
    }

    /// A fresh random 16-byte actor id.
    public static func random() -> ActorID {
        var generator = SystemRandomNumberGenerator()
        return ActorID(bytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public var hexString: String { HexEncoding.string(bytes) }
    public var description: String { hexString }

    public static func < (left: ActorID, right: ActorID) -> Bool { bytesPrecede(left.bytes, right.bytes) }
}
