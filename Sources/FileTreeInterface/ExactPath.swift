/// A path as the kernel spells it, compared and hashed byte for byte.
///
/// Swift's `String` compares by Unicode canonical equivalence: `café` written precomposed (NFC,
/// `caf\u{E9}`) and decomposed (NFD, `cafe\u{301}`) are equal `String`s, one dictionary key. On Linux
/// they are two names, two files. Every table the mount keeps by path is keyed by this instead, so a
/// file never stands for another whose name only looks the same.
public struct ExactPath: Hashable, Sendable, CustomStringConvertible {
    public let path: String

    public init(_ path: String) {
        self.path = path
    }

    public static func == (lhs: ExactPath, rhs: ExactPath) -> Bool {
        lhs.path.utf8.elementsEqual(rhs.path.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        var path = self.path
        path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public var description: String { path }
}
