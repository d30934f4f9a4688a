import AutomergeKit
import TestSupport

/// A conversation `tools/record-sync-fixtures` recorded.
struct RecordedConversation {
    var a = "-", b = "-"
    var messages: [[UInt8]?] = []
    var headsA: [String] = [], headsB: [String] = []

    init(_ text: String) throws {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ").map(String.init)
            switch fields.first {
            case "a": a = fields.count > 1 ? fields[1] : "-"
            case "b": b = fields.count > 1 ? fields[1] : "-"
            case "A", "B":
                guard fields.count == 2 else { throw FixtureError("bad message line \(line.prefix(40))") }
                if fields[1] == "-" {
                    messages.append(nil)
                } else {
                    guard let bytes = bytes(hex: fields[1]) else { throw FixtureError("bad hex in \(line.prefix(40))") }
                    messages.append(bytes)
                }
            case "heads":
                guard fields.count >= 2 else { throw FixtureError("bad heads line") }
                if fields[1] == "A" { headsA = Array(fields.dropFirst(2)) } else { headsB = Array(fields.dropFirst(2)) }
            case "end": break
            default: throw FixtureError("unknown line \(line.prefix(40))")
            }
        }
    }

    func document(_ name: String) throws -> Document {
        name == "-" ? Document() : try Document.load(Fixtures.bytes(name))
    }
}

func hexString(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    var text = ""
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 15)])
    }
    return text
}

func bytes(hex: String) -> [UInt8]? {
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0 else { return nil }
    func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 48...57: digit - 48
        case 97...102: digit - 87
        default: nil
        }
    }
    var result: [UInt8] = []
    result.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
        guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
        result.append(high << 4 | low)
        index += 2
    }
    return result
}
