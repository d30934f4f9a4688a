import AutomergeKit
@testable import MinutaStore
import Testing

/// `SupersededValues` alone: what merges changed in record and tag fields, and how a save is judged by
/// when its writer read the record (SPEC 5b). Instants are made, never waited for.
struct SupersededValuesTests {
    typealias Fields = [(key: String, value: JSONValue)]
    static let record = RecordID("0A000000-0000-4000-8000-000000000001")
    static let other = RecordID("0B000000-0000-4000-8000-000000000002")
    static let now = 1_700_000_000
    static let beforeMerge = ContinuousClock.now
    static let published = beforeMerge.advanced(by: .seconds(1))
    static let afterPublish = beforeMerge.advanced(by: .seconds(2))

    /// A merge that changed the record's comment from "old" to "phone" (by device `abcd1234`).
    static func mergedComment(published: Bool) -> SupersededValues {
        var values = SupersededValues()
        values.noteMerge([.init(id: record, field: "comment", before: .string("old"), merged: .string("phone"), device: "abcd1234")], now: now)
        if published { values.publish(at: Self.published) }
        return values
    }

    static func comment(_ text: String) -> Fields { [("startTime", .string("2024-01-01T09:00:00.000Z")), ("comment", .string(text))] }

    // MARK: What a merge changed

    @Test("changes: a field changed, added or removed is one change each; a new record is a new object; a removed one is nothing")
    func changesBetweenViews() {
        let before: [RecordID: Fields] = [
            Self.record: [("comment", .string("a")), ("endTime", .integer(1)), ("images", .array([]))],
            Self.other: [("comment", .string("gone"))],
        ]
        let created = RecordID("0C000000-0000-4000-8000-000000000003")
        let after: [RecordID: Fields] = [
            Self.record: [("comment", .string("b")), ("endTime", .integer(1)), ("tagId", .string("T"))],
            created: [("comment", .string("new"))],
        ]
        let changes = SupersededValues.changes(before: before, after: after)
        #expect(changes.count == 4)
        #expect(changes.first?.id == created && changes.first?.field == nil, "a new record comes first, as a new object")
        let fields = changes.dropFirst().map { "\($0.id.text) \($0.field ?? "-") \($0.before.map { "\($0)" } ?? "nil") \($0.merged.map { "\($0)" } ?? "nil")" }
        #expect(fields == [
            "\(Self.record.text) comment \(JSONValue.string("a")) \(JSONValue.string("b"))",
            "\(Self.record.text) images \(JSONValue.array([])) nil",
            "\(Self.record.text) tagId nil \(JSONValue.string("T"))",
        ])
        #expect(!changes.contains { $0.id == Self.other }, "a removed record has no field a writer could have read stale")
    }

    @Test("changes: equal views give none")
    func noChanges() {
        let view: [RecordID: Fields] = [Self.record: Self.comment("same")]
        #expect(SupersededValues.changes(before: view, after: view).isEmpty)
        #expect(SupersededValues.changes(before: [:], after: [:]).isEmpty)
    }

    @Test("fields of a month document and of the tags document are what the files show, without id")
    func fieldsOfDocuments() throws {
        var month = Document()
        let record = try month.putObject(.map, forKey: Self.record.text)
        try month.put(.timestamp(1_704_099_600_000), forKey: "startTime", in: record)
        let comment = try month.putObject(.text, forKey: "comment", in: record)
        try month.spliceText(comment, at: 0, delete: 0, insert: "text object")
        try month.put(.string("not a record"), forKey: "stray")
        let fields = SupersededValues.fields(of: month)
        #expect(Array(fields.keys) == [Self.record])
        let shown = try #require(fields[Self.record])
        #expect(!shown.contains { $0.key == "id" })
        #expect(shown.first { $0.key == "startTime" }?.value == .string("2024-01-01T09:00:00Z"))
        #expect(shown.first { $0.key == "comment" }?.value == .string("text object"))

        var tags = Document()
        let tag = try tags.putObject(.map, forKey: Self.other.text.lowercased())
        try tags.put(.string("Work"), forKey: "name", in: tag)
        let tagFields = SupersededValues.tagFields(of: tags)
        #expect(Array(tagFields.keys) == [Self.other])
        #expect(tagFields[Self.other]?.map(\.key) == ["name"])
    }

    // MARK: Remembering

    @Test("empty until a merge changes something, and empty again once its memory is over")
    func memoryIsBounded() {
        var values = SupersededValues()
        #expect(values.isEmpty)
        values.noteMerge([], now: Self.now)
        #expect(values.isEmpty)
        values = Self.mergedComment(published: false)
        #expect(!values.isEmpty)
        values.noteMerge([], now: Self.now + SupersededValues.memory)
        #expect(!values.isEmpty, "forgotten before its time")
        values.noteMerge([], now: Self.now + SupersededValues.memory + 1)
        #expect(values.isEmpty, "remembered past its time")
    }

    // MARK: Judging a save

    @Test("a writer that read before the merge was shown and saved what it read keeps the merged value")
    func staleSaveKeepsMerged() {
        let values = Self.mergedComment(published: false)
        let result = values.reconcile(Self.comment("old"), current: Self.comment("phone"), recordID: Self.record,
                                      reading: .at(Self.afterPublish), now: Self.now + 1)
        #expect(JSONValue.object(result.fields) == .object(Self.comment("phone")))
        #expect(result.outcomes == [.init(kind: .kept, field: "comment", merged: .string("phone"), written: .string("old"), device: "abcd1234")])
        // Published later than the read: the same.
        let published = Self.mergedComment(published: true)
        let early = published.reconcile(Self.comment("old"), current: Self.comment("phone"), recordID: Self.record,
                                        reading: .at(Self.beforeMerge), now: Self.now + 1)
        #expect(early.outcomes.map(\.kind) == [.kept])
    }

    @Test("a writer that read before the merge and saved a third value wins, and the merged value is reported")
    func concurrentSaveWins() {
        let values = Self.mergedComment(published: true)
        let result = values.reconcile(Self.comment("laptop"), current: Self.comment("phone"), recordID: Self.record,
                                      reading: .at(Self.beforeMerge), now: Self.now + 1)
        #expect(JSONValue.object(result.fields) == .object(Self.comment("laptop")))
        #expect(result.outcomes == [.init(kind: .replacedConcurrently, field: "comment", merged: .string("phone"), written: .string("laptop"), device: "abcd1234")])
    }

    @Test("a writer that read after the merge was shown is applied as written, unreported")
    func readAfterPublishIsApplied() {
        let values = Self.mergedComment(published: true)
        let result = values.reconcile(Self.comment("old"), current: Self.comment("phone"), recordID: Self.record,
                                      reading: .at(Self.afterPublish), now: Self.now + 1)
        #expect(JSONValue.object(result.fields) == .object(Self.comment("old")))
        #expect(result.outcomes.isEmpty)
    }

    @Test("a writer whose reads are unknown is applied as written, and the merged value still shown is reported")
    func unknownReadIsAppliedAndReported() {
        let values = Self.mergedComment(published: true)
        let result = values.reconcile(Self.comment("old"), current: Self.comment("phone"), recordID: Self.record, reading: .unknown, now: Self.now + 1)
        #expect(JSONValue.object(result.fields) == .object(Self.comment("old")))
        #expect(result.outcomes.map(\.kind) == [.replacedUnknowingly])
        // The merged value is no longer what is shown (changed since): nothing merged is replaced.
        let later = values.reconcile(Self.comment("old"), current: Self.comment("edited since"), recordID: Self.record, reading: .unknown, now: Self.now + 1)
        #expect(later.outcomes.isEmpty)
    }

    @Test("a restore, a record no merge touched, an unchanged field and an expired merge are applied as written")
    func appliedAsWritten() {
        let values = Self.mergedComment(published: false)
        let cases: [(RecordID, Fields, WriterRead, Int)] = [
            (Self.record, Self.comment("old"), .restoring, Self.now + 1),
            (Self.other, Self.comment("old"), .at(Self.beforeMerge), Self.now + 1),
            (Self.record, Self.comment("phone"), .at(Self.beforeMerge), Self.now + 1),
            (Self.record, Self.comment("old"), .at(Self.beforeMerge), Self.now + SupersededValues.memory + 1),
        ]
        for (id, written, reading, now) in cases {
            let result = values.reconcile(written, current: Self.comment("phone"), recordID: id, reading: reading, now: now)
            #expect(JSONValue.object(result.fields) == .object(written))
            #expect(result.outcomes.isEmpty)
        }
    }

    @Test("a stale save of a field the merge removed removes it; of one the merge added, adds it")
    func staleSaveOfRemovedAndAddedFields() {
        var values = SupersededValues()
        values.noteMerge([
            .init(id: Self.record, field: "endTime", before: .string("2024-01-01T10:00:00.000Z"), merged: nil, device: nil),
            .init(id: Self.record, field: "tagId", before: nil, merged: .string("T"), device: nil),
        ], now: Self.now)
        let written: Fields = [("endTime", .string("2024-01-01T10:00:00.000Z"))]
        let current: Fields = [("tagId", .string("T"))]
        let result = values.reconcile(written, current: current, recordID: Self.record, reading: .at(Self.afterPublish), now: Self.now)
        #expect(JSONValue.object(result.fields) == .object([("tagId", .string("T"))]))
        #expect(result.outcomes.map(\.field) == ["endTime", "tagId"])
        #expect(result.outcomes.allSatisfy { $0.kind == .kept })
    }

    // MARK: Objects a merge created

    @Test("a tag a merge created and a save leaves out: kept for a stale reader, deleted otherwise")
    func omissions() {
        var values = SupersededValues()
        #expect(values.omission(of: Self.other, reading: .unknown, now: Self.now) == .delete)
        values.noteMerge([.init(id: Self.other, field: nil, before: nil, merged: nil, device: "abcd1234")], now: Self.now)
        #expect(values.omission(of: Self.other, reading: .at(Self.afterPublish), now: Self.now) == .keep(device: "abcd1234"))
        #expect(values.omission(of: Self.other, reading: .unknown, now: Self.now) == .deleteReported(device: "abcd1234"))
        #expect(values.omission(of: Self.other, reading: .restoring, now: Self.now) == .delete)
        values.publish(at: Self.published)
        #expect(values.omission(of: Self.other, reading: .at(Self.beforeMerge), now: Self.now) == .keep(device: "abcd1234"))
        #expect(values.omission(of: Self.other, reading: .at(Self.afterPublish), now: Self.now) == .delete)
        #expect(values.omission(of: Self.other, reading: .at(Self.beforeMerge), now: Self.now + SupersededValues.memory + 1) == .delete)
        #expect(values.omission(of: Self.record, reading: .at(Self.beforeMerge), now: Self.now) == .delete)
    }

    @Test("publishing marks only the merges noted so far: a later merge is unseen by a reader between them")
    func publishIsPerMerge() {
        var values = Self.mergedComment(published: true)
        values.noteMerge([.init(id: Self.record, field: "comment", before: .string("phone"), merged: .string("tablet"), device: "ffff0000")], now: Self.now + 5)
        // Read after the first merge was shown, before the second: saving "phone" is stale.
        let result = values.reconcile(Self.comment("phone"), current: Self.comment("tablet"), recordID: Self.record,
                                      reading: .at(Self.afterPublish), now: Self.now + 6)
        #expect(JSONValue.object(result.fields) == .object(Self.comment("tablet")))
        #expect(result.outcomes == [.init(kind: .kept, field: "comment", merged: .string("tablet"), written: .string("phone"), device: "ffff0000")])
    }
}
