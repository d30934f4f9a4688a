import Foundation
import MinutaStore
import SystemPackage
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
            let id = RecordID.random().text
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
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let json = #"{"startTime": "2024-01-20T10:00:00Z", "endTime": "2024-01-20T11:00:00Z"}"#
            let outcome = try store.writeRecordFile(Array(json.utf8), named: "new.json", in: #require(Month(year: 2024, month: 1)))
            #expect(Self.isUpperCaseVersion4(outcome.id), "\(outcome.id)")
        }
    }

    @Test("a record id is the same id in any case: equal, one key, and found among a document's keys as written")
    func recordIDIgnoresCase() {
        let written = "5c168e2e-6b8f-412b-9329-121d1c34395f"
        #expect(RecordID(written) == RecordID(written.uppercased()))
        #expect(RecordID(written).text == written.uppercased())
        #expect(Set([RecordID(written), RecordID(written.uppercased())]).count == 1)
        #expect(RecordID(written).key(among: ["0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81", written]) == written, "the key keeps its case")
        #expect(RecordID(written.uppercased()).key(among: ["0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81"]) == nil)
        #expect(RecordID(UUID(uuidString: written)!) == RecordID(written))
    }
}
