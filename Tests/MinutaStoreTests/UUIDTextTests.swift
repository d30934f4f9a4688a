import Foundation
import MinutaStore
import Testing
import TestSupport

/// New record and tag ids: RFC 4122 version 4 UUIDs in upper case, as the Minuta app writes them.
struct UUIDTextTests {
    /// Whether `text` is an upper-case RFC 4122 UUID of version 4 with the RFC's variant bits
    /// (`xxxxxxxx-xxxx-4xxx-[89AB]xxx-xxxxxxxxxxxx`), checked character by character.
    static func isUpperCaseVersion4(_ text: String) -> Bool {
        let characters = Array(text)
        guard characters.count == 36 else { return false }
        for (index, character) in characters.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard character == "-" else { return false }
            } else {
                guard "0123456789ABCDEF".contains(character) else { return false }
            }
        }
        return characters[14] == "4" && "89AB".contains(characters[19])
    }

    @Test("10,000 new ids are unique, upper case, version 4 with the RFC 4122 variant bits")
    func randomIDs() {
        var seen = Set<String>()
        for _ in 0..<10_000 {
            let id = UUIDText.random()
            #expect(Self.isUpperCaseVersion4(id), "\(id)")
            #expect(UUIDText.isValid(id), "\(id)")
            seen.insert(id)
        }
        #expect(seen.count == 10_000)
        // About half of the 30 random hex digits are 0 to 7; a third of zeros would show a fault.
        let zeros = seen.reduce(0) { $0 + $1.filter { $0 == "0" }.count }
        #expect(zeros < 10_000 * 32 / 8, "\(zeros) zero digits in 10,000 ids")
    }

    @Test("a record written without an id gets a version 4 id")
    func newRecordID() throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/store"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            let store = try Store(path: path, timeZone: .utc)
            let json = #"{"startTime": "2024-01-20T10:00:00Z", "endTime": "2024-01-20T11:00:00Z"}"#
            let outcome = try store.writeRecordFile(Array(json.utf8), named: "new.json", in: #require(Month(year: 2024, month: 1)))
            #expect(Self.isUpperCaseVersion4(outcome.id), "\(outcome.id)")
        }
    }
}
