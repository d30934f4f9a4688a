import Testing
import MinutaMigration
import MinutaStore

/// Reading the legacy JSON formats of seed 001 (`minutafs migrate`).
struct LegacyStoreReaderTests {
    static let id = "123e4567-e89b-12d3-a456-426614174000"

    @Test("legacy dates in every accepted form give the same instant", arguments: [
        "\"2024-01-15T09:30:00Z\"", "\"2024-01-15T09:30:00.000Z\"", "\"2024-01-15T09:30:00.000000Z\"",
        "\"2024-01-15T10:30:00+01:00\"", "\"2024-01-15T10:30:00+0100\"", "\"2024-01-15T04:30:00-05:00\"",
        "\"2024-01-15 09:30:00Z\"", "1705311000000",
    ])
    func dates(startTime: String) throws {
        let record = try LegacyStoreReader.record(from: Array("{\"id\": \"\(Self.id)\", \"startTime\": \(startTime)}".utf8))
        #expect(record.startTime == 1_705_311_000_000)
        #expect(record.id == Self.id)
        #expect(record.endTime == nil)
        #expect(record.images.isEmpty)
    }

    @Test("a full record keeps every field, its id as written, an upper-cased tag id and other keys")
    func fullRecord() throws {
        let text = """
            {"id": "\(Self.id)", "startTime": "2024-01-15T09:30:00Z", "endTime": "2024-01-15T11:45:00.250Z",
             "tagId": "550e8400-e29b-41d4-a716-446655440000", "comment": "Jörg 🚀", "images": ["a_0.jpg", "a_1.png"], "mood": "good"}
            """
        let record = try LegacyStoreReader.record(from: Array(text.utf8))
        #expect(record == LegacyRecord(id: Self.id, startTime: 1_705_311_000_000, endTime: 1_705_319_100_250,
                                       tagId: "550E8400-E29B-41D4-A716-446655440000", comment: "Jörg 🚀",
                                       images: ["a_0.jpg", "a_1.png"], otherFields: ["mood": .string("good")]))
    }

    @Test("records that cannot be read say why", arguments: [
        ("{\"startTime\": \"2024-01-15T09:30:00Z\"}", "\"id\" is required"),
        ("{\"id\": \"nope\", \"startTime\": \"2024-01-15T09:30:00Z\"}", "\"id\": expected a UUID"),
        ("{\"id\": \"\(id)\"}", "\"startTime\" is required"),
        ("{\"id\": \"\(id)\", \"startTime\": \"yesterday\"}", "\"startTime\": expected an ISO 8601 date"),
        ("{\"id\": \"\(id)\", \"startTime\": \"2024-02-30T09:30:00Z\"}", "\"startTime\": expected an ISO 8601 date"),
        ("{\"id\": \"\(id)\", \"startTime\": 1705311000000, \"comment\": 5}", "\"comment\": expected a string"),
        ("{\"id\": \"\(id)\", \"startTime\": 1705311000000, \"images\": [\"../x.jpg\"]}", "not a plain file name"),
        ("{\"id\": \"\(id)\", \"startTime\": 17", "line 1"),
        ("[1, 2]", "expected a JSON object"),
    ] as [(String, String)])
    func unreadable(text: String, reason: String) {
        do {
            _ = try LegacyStoreReader.record(from: Array(text.utf8))
            Issue.record("read \(text)")
        } catch {
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test("tags.json: every readable tag is read, each unreadable one is reported")
    func tags() {
        let text = """
            {"tags": [
              {"id": "550e8400-e29b-41d4-a716-446655440000", "name": "Work", "color": "#4A90D9", "createdAt": "2024-01-01T00:00:00Z", "isArchived": false},
              {"id": "550e8400-e29b-41d4-a716-446655440001", "name": "Old", "color": "#7F8C8D", "createdAt": "2023-01-01T00:00:00+02:00", "isArchived": true},
              {"id": "550e8400-e29b-41d4-a716-446655440002", "color": "#7F8C8D", "createdAt": "2023-01-01T00:00:00Z"}
            ]}
            """
        let (tags, failures) = LegacyStoreReader.tags(from: Array(text.utf8))
        #expect(tags.map(\.name) == ["Work", "Old"])
        #expect(tags.map(\.id) == ["550E8400-E29B-41D4-A716-446655440000", "550E8400-E29B-41D4-A716-446655440001"])
        #expect(tags[1].createdAt == 1_672_524_000_000)
        #expect(tags[1].isArchived)
        #expect(failures == ["tag 3: \"name\": expected a string"])
    }

    @Test("keys of tags.json beside \"tags\" are kept; an object or a UUID there is refused")
    func tagsFileFields() {
        let text = """
            {"version": 3, "tags": [], "order": ["a"], "meta": {"x": 1}, "550e8400-e29b-41d4-a716-446655440000": 1}
            """
        let file = LegacyStoreReader.tagsFile(from: Array(text.utf8))
        #expect(file.otherFields == ["version": .integer(3), "order": .array([.string("a")])])
        #expect(file.failures.count == 2)
        #expect(file.failures.first?.contains("\"meta\" beside \"tags\" holds an object") == true, "\(file.failures)")
    }
}
