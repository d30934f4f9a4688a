@testable import AutomergeKit
import Testing

/// The loader validates strings with its own UTF-8 check; it must accept exactly what
/// `String(validating:as:)` accepts.
struct UTF8ValidationTests {
    static func agrees(_ bytes: [UInt8]) -> Bool {
        let ours = bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
        let standard = String(validating: bytes, as: UTF8.self) != nil
        return ours == standard
    }

    @Test func everyOneAndTwoByteSequence() {
        for first in 0...255 {
            #expect(Self.agrees([UInt8(first)]))
            for second in 0...255 where !Self.agrees([UInt8(first), UInt8(second)]) {
                Issue.record("disagree on \(first) \(second)")
            }
        }
    }

    @Test func everyThreeByteSequenceWithAMultibyteLead() {
        for first in 0xC0...0xFF {
            for second in 0x70...0xC5 {
                for third in [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF] {
                    let bytes = [UInt8(first), UInt8(second), UInt8(third)]
                    if !Self.agrees(bytes) { Issue.record("disagree on \(bytes)") }
                }
            }
        }
    }

    @Test func fourByteBoundaries() {
        for first in 0xF0...0xF5 {
            for second in [0x7F, 0x80, 0x8F, 0x90, 0xBF, 0xC0] {
                for tail in [[0x80, 0x80], [0xBF, 0xBF], [0x80, 0x41], [0x41, 0x80]] {
                    let bytes = [UInt8(first), UInt8(second)] + tail.map(UInt8.init)
                    if !Self.agrees(bytes) { Issue.record("disagree on \(bytes)") }
                    if !Self.agrees([0x41] + bytes + [0x42]) { Issue.record("disagree inside text on \(bytes)") }
                }
            }
        }
    }

    @Test func realText() {
        for text in ["", "plain", "Zürich", "日本語", "e\u{301}", "🙂 emoji", "\u{10FFFF}"] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) })
            #expect(UTF8Validation.string(bytes, 0..<bytes.count) == text)
        }
    }
}
