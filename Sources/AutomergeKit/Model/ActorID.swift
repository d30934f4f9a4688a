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
        // Two 64-bit draws rather than sixteen one-byte ones (each draw is a system call); every
        // document made or loaded starts with a random actor.
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return ActorID(bytes: bytes)
    }

    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public var hexString: String { HexEncoding.string(bytes) }
    public var description: String { hexString }

    public static func < (left: ActorID, right: ActorID) -> Bool { bytesPrecede(left.bytes, right.bytes) }
}
