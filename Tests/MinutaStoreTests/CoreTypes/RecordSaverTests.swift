@testable import MinutaStore
import Testing

/// `RecordSaver`'s decisions that need no store: what a written record file is, and which month a
/// saved record belongs in (SPEC section 4).
struct RecordSaverTests {
    static let january = Month(year: 2024, month: 1)!
    static let february = Month(year: 2024, month: 2)!
    /// 2024-01-15T10:00:00Z and 2024-02-15T10:00:00Z, in milliseconds.
    static let inJanuary: Int64 = 1_705_312_800_000
    static let inFebruary: Int64 = 1_707_991_200_000

    @Test("a written record is a JSON object whose id, if any, is a UUID; refusals say where")
    func parsing() throws {
        let written = try RecordSaver.parse(Array(#"{"id": "0a000000-0000-4000-8000-000000000001", "comment": "x"}"#.utf8), displayPath: "f.json")
        #expect(written.id == "0a000000-0000-4000-8000-000000000001")
        #expect(written.members.map(\.key) == ["id", "comment"])
        #expect(try RecordSaver.parse(Array(#"{"comment": "x"}"#.utf8), displayPath: "f.json").id == nil)
        let cases: [(String, Int)] = [
            ("[1, 2]", 1),
            ("{\"comment\": ", 1),
            ("{\n  \"comment\": \"x\",\n  \"id\": \"not a uuid\"\n}", 3),
            ("{\n  \"id\": 12\n}", 2),
        ]
        for (text, line) in cases {
            do {
                _ = try RecordSaver.parse(Array(text.utf8), displayPath: "records/2024/01/f.json")
                Issue.record("\(text) was taken")
            } catch {
                guard case .rejected(let file, let errorLine, _, _) = error else { Issue.record("\(text): \(error)"); continue }
                #expect(file == "records/2024/01/f.json")
                #expect(errorLine == line, "\(text)")
            }
        }
    }

    @Test("a record stays in the month that holds it unless the write moved its start out of that month")
    func filing() {
        let file = { (previous: Int64??, new: Int64?) in
            RecordSaver.filingMonth(previousStart: previous, newStart: new, holder: Self.january, timeZone: .utc)
        }
        // A new record goes to the month of its start.
        #expect(file(nil, Self.inFebruary) == Self.february)
        #expect(file(nil, Self.inJanuary) == Self.january)
        // An unchanged start stays where it is held, even outside the holder's month (another zone filed it).
        #expect(file(.some(Self.inFebruary), Self.inFebruary) == Self.january)
        // A changed start out of the month moves it; within the month it stays.
        #expect(file(.some(Self.inJanuary), Self.inFebruary) == Self.february)
        #expect(file(.some(Self.inJanuary), Self.inJanuary + 1000) == Self.january)
        // No start: it stays.
        #expect(file(.some(Self.inJanuary), nil) == Self.january)
        #expect(file(.some(nil), Self.inFebruary) == Self.february)
    }
}
