/// Where two byte strings first differ, described for a test failure without printing either
/// whole (a dump of a large document is megabytes).
public struct ByteDifference: Equatable, CustomStringConvertible {
    /// Offset of the first differing byte (or the shorter length when one is a prefix of the other).
    public let offset: Int
    public let description: String

    /// `nil` when `actual` and `expected` are equal.
    public init?(actual: [UInt8], expected: [UInt8]) {
        let common = min(actual.count, expected.count)
        var offset = 0
        while offset < common, actual[offset] == expected[offset] { offset += 1 }
        guard offset < max(actual.count, expected.count) else { return nil }
        self.offset = offset
        let line = expected[..<min(offset, expected.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        description = "first difference at byte \(offset) (line \(line)): "
            + "actual \(Self.excerpt(actual, around: offset)), expected \(Self.excerpt(expected, around: offset)); "
            + "actual is \(actual.count) bytes, expected \(expected.count)"
    }

    /// `nil` when the UTF-8 bytes of `actual` equal `expected` (compared as bytes: `String`'s `==`
    /// would treat canonically equivalent texts as equal).
    public init?(actual: String, expected: [UInt8]) {
        self.init(actual: Array(actual.utf8), expected: expected)
    }

    /// `nil` when `actualLines`, each followed by a newline, equal `expected`.
    public init?(actualLines: [String], expected: [UInt8]) {
        self.init(actual: Array(actualLines.map { $0 + "\n" }.joined().utf8), expected: expected)
    }

    private static func excerpt(_ bytes: [UInt8], around offset: Int) -> String {
        let start = max(0, offset - 40)
        let end = min(bytes.count, offset + 40)
        guard start < end else { return "<end>" }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        return "\(start > 0 ? "…" : "")\(text.debugDescription)\(end < bytes.count ? "…" : "")"
    }
}
