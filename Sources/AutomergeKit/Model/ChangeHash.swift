/// The SHA-256 of a change chunk: the identity of a change.
public struct ChangeHash: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }

    public init?(hexString: String) {
        guard let bytes = HexEncoding.bytes(hexString), bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public var hexString: String { HexEncoding.string(bytes) }
    public var description: String { hexString }

    public static func < (left: ChangeHash, right: ChangeHash) -> Bool { bytesPrecede(left.bytes, right.bytes) }
}
