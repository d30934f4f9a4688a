import AutomergeKit
@testable import MinutaStore
import Testing

/// `RecordField`: the one spelling of each record key, in the order a record's file shows them.
struct RecordFieldTests {
    @Test("the keys are SPEC's, in the order of a record's file")
    func keysAndOrder() throws {
        #expect(RecordField.allCases.map(\.key) == ["id", "startTime", "endTime", "tagId", "comment", "images"])
        var document = Document()
        let record = try document.putObject(.map, forKey: "0A000000-0000-4000-8000-000000000001")
        // Written in another order, with a key the app does not know first.
        try document.put(.string("x"), forKey: "project", in: record)
        try document.put(.string("c"), forKey: RecordField.comment.key, in: record)
        try document.put(.string("7A000000-0000-4000-8000-00000000000A"), forKey: RecordField.tagId.key, in: record)
        try document.put(.timestamp(2), forKey: RecordField.endTime.key, in: record)
        try document.put(.timestamp(1), forKey: RecordField.startTime.key, in: record)
        guard case .object(let members) = RecordView.json(id: "0A000000-0000-4000-8000-000000000001", record: record, in: document) else {
            Issue.record("not an object"); return
        }
        #expect(members.map(\.key) == RecordField.allCases.map(\.key) + ["project"])
    }

    @Test("a key is a field only when spelled exactly")
    func parsing() {
        #expect(RecordField(key: "endTime") == .endTime)
        #expect(RecordField(key: "endtime") == nil)
        #expect(RecordField(key: "end") == nil)
        #expect(RecordField(key: "") == nil)
        #expect(RecordField.allCases.allSatisfy { RecordField(key: $0.key) == $0 })
    }
}
