import AutomergeKit
import Foundation
import MinutaStore
import Testing

/// The mounted JSON files are laid out as `jq .` prints them, string escapes included: every
/// ASCII character (U+007F among them) and some beyond, checked against the real `jq` (a Debian
/// package the tests need; `make deps` installs it).
struct JSONStringTests {
    /// What `jq .` prints for `input`.
    static func jq(_ input: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jq")
        process.arguments = ["."]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "jq failed on \(String(decoding: input, as: UTF8.self))")
        return [UInt8](output)
    }

    static let samples: [String] = [
        String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self),
        "quote \" backslash \\ slash / tab \t newline \n",
        "é e\u{301} \u{2028} \u{2029} \u{FEFF} 🙂 Спринт",
    ]

    @Test("strings are escaped exactly as jq . escapes them", arguments: samples)
    func likeJQ(text: String) throws {
        let written = JSONWriter.pretty(.object([(key: text, value: .string(text))]))
        #expect(try Self.jq(written) == written, "\(String(decoding: written, as: UTF8.self))")
    }

    @Test("U+007F: \\u007f in the mounted files (as jq), raw in the inspection dumps (as the reference)")
    func deleteCharacter() {
        var escaped: [UInt8] = [], raw: [UInt8] = []
        JSONString.append("a\u{7F}b", to: &escaped, delete: .escaped)
        JSONString.append("a\u{7F}b", to: &raw, delete: .raw)
        #expect(String(decoding: escaped, as: UTF8.self) == #""a\u007fb""#)
        #expect(raw == [0x22, 0x61, 0x7F, 0x62, 0x22])
    }
}
