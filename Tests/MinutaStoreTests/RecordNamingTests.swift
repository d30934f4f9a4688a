@testable import MinutaStore
import Testing

/// Names of records whose keys are not the app's UUIDs (written by some other program): they stay
/// one plain name inside their folder, the same on every machine (SPEC section 3).
struct RecordNamingTests {
    @Test("a key with '/', NUL, newline or '%' is percent-encoded in its file name", arguments: [
        ("../../escape", "..%2F..%2Fescape.json"),
        ("a\0b", "a%00b.json"),
        ("line\nbreak", "line%0Abreak.json"),
        ("100%", "100%25.json"),
        ("a%2Fb", "a%252Fb.json"),
        ("..", "...json"),
        ("Grüße", "Grüße.json"),
        ("5F1C4A2E-0B6D-4C8E-9A3F-2D7B1E6C8A90", "5F1C4A2E-0B6D-4C8E-9A3F-2D7B1E6C8A90.json"),
    ])
    func encoded(key: String, name: String) throws {
        #expect(RecordNaming.names(for: [(key, nil)], timeZone: .utc) == [name])
    }

    @Test("the id prefix that tells records of the same second apart is encoded too")
    func encodedPrefix() throws {
        let names = RecordNaming.names(for: [("x/y/z/w/v", 1_705_311_000_000), ("AAAAAAAA-0000-4000-8000-000000000001", 1_705_311_000_000)], timeZone: .utc)
        #expect(names == ["2024-01-15_093000_x%2Fy%2Fz%2Fw%2F.json", "2024-01-15_093000_AAAAAAAA.json"])
    }

    @Test("a very long key gives a name under 256 bytes, different for keys that differ only at the end")
    func longKeys() throws {
        let base = String(repeating: "../", count: 400)
        let names = RecordNaming.names(for: [(base + "a", nil), (base + "b", nil)], timeZone: .utc)
        #expect(names.allSatisfy { $0.utf8.count <= 255 && !$0.contains("/") })
        #expect(names[0] != names[1])
        #expect(RecordNaming.names(for: [(base + "a", nil)], timeZone: .utc) == [names[0]])
    }
}
