import AutomergeKit
@testable import MinutaStore
import Testing

/// `ObjectEditor` alone: the JSON a user wrote for one record or tag becomes the smallest set of
/// operations on its map, or an error and no change at all.
struct ObjectEditorTests {
    typealias Fields = [(key: String, value: JSONValue)]
    static let id = "0A000000-0000-4000-8000-000000000001"
    static let tagID = "7A000000-0000-4000-8000-00000000000A"

    /// A month document with one record (startTime 2024-01-01T09:00Z, a text comment, one image, an
    /// integer `rating` the app does not know), committed.
    static func month() throws -> (Document, ObjectID) {
        var document = Document()
        let record = try document.putObject(.map, forKey: id)
        try document.put(.timestamp(1_704_099_600_000), forKey: "startTime", in: record)
        let comment = try document.putObject(.text, forKey: "comment", in: record)
        try document.spliceText(comment, at: 0, delete: 0, insert: "Meeting with Ana")
        let images = try document.putObject(.list, forKey: "images", in: record)
        try document.insert(.string("a.png"), at: 0, in: images)
        try document.put(.int(3), forKey: "rating", in: record)
        document.commit(time: 0)
        return (document, record)
    }

    /// The record as its file shows it, without `id`.
    static func view(_ document: Document, _ record: ObjectID) -> Fields {
        guard case .object(let members) = RecordView.json(id: id, record: record, in: document) else { return [] }
        return members.filter { $0.key != "id" }
    }

    /// `view` with `key` set to `value` (nil: removed), appended when absent.
    static func setting(_ key: String, _ value: JSONValue?, in fields: Fields) -> Fields {
        var fields = fields
        if let index = fields.firstIndex(where: { $0.key == key }) {
            if let value { fields[index].value = value } else { fields.remove(at: index) }
        } else if let value {
            fields.append((key, value))
        }
        return fields
    }

    /// Applies `members` to the record and returns the editor, or the error.
    static func edit(_ change: (Fields) -> Fields) throws -> (editor: ObjectEditor, error: RecordInputError?) {
        let (document, record) = try month()
        var editor = ObjectEditor(document: document, object: record, rules: FieldRule.record)
        let current = view(document, record)
        do {
            try editor.apply(change(current), currentView: current)
            return (editor, nil)
        } catch {
            return (editor, error)
        }
    }

    @Test("the view written back unchanged makes no operation")
    func unchangedMakesNothing() throws {
        let (editor, error) = try Self.edit { $0 }
        #expect(error == nil)
        #expect(editor.document.uncommittedOperationCount == 0)
    }

    @Test("a comment kept as a text object is spliced, not replaced")
    func textIsSpliced() throws {
        let (document, record) = try Self.month()
        guard case .object(let text, .text)? = document.value(of: record, key: "comment") else { Issue.record("no text"); return }
        var editor = ObjectEditor(document: document, object: record, rules: FieldRule.record)
        let current = Self.view(document, record)
        try editor.apply(Self.setting("comment", .string("Meeting with Ana and Bo"), in: current), currentView: current)
        guard case .object(let after, .text)? = editor.document.value(of: record, key: "comment") else { Issue.record("not text any more"); return }
        #expect(after == text)
        #expect(editor.document.text(of: after) == "Meeting with Ana and Bo")
        #expect(editor.document.uncommittedOperationCount == " and Bo".count)
    }

    @Test("dates are stored as timestamps, from ISO 8601 with any offset or from milliseconds")
    func datesAreTimestamps() throws {
        let (iso, error) = try Self.edit { Self.setting("endTime", .string("2024-01-01T11:30:00+01:00"), in: $0) }
        #expect(error == nil)
        let record = iso.object
        #expect(iso.document.value(of: record, key: "endTime") == .scalar(.timestamp(1_704_105_000_000)))
        let (milliseconds, error2) = try Self.edit { Self.setting("endTime", .integer(1_704_105_000_000), in: $0) }
        #expect(error2 == nil)
        #expect(milliseconds.document.value(of: milliseconds.object, key: "endTime") == .scalar(.timestamp(1_704_105_000_000)))
    }

    @Test("an invalid value is refused with the field it is in, and the document is left as it was")
    func refusals() throws {
        let cases: [(String, (Fields) -> Fields, RecordInputError)] = [
            ("no startTime", { Self.setting("startTime", nil, in: $0) }, .missingField("startTime")),
            ("null startTime", { Self.setting("startTime", .null, in: $0) }, .missingField("startTime")),
            ("a bad date", { Self.setting("endTime", .string("yesterday"), in: $0) }, .invalidDate(field: "endTime")),
            ("end before start", { Self.setting("endTime", .string("2024-01-01T08:00:00Z"), in: $0) }, .endBeforeStart),
            ("a path as image", { Self.setting("images", .array([.string("../a.png")]), in: $0) }, .invalidImageName("../a.png")),
            ("a key twice", { $0 + [("comment", .string("again"))] }, .duplicateID("comment")),
        ]
        for (name, change, expected) in cases {
            let (editor, error) = try Self.edit(change)
            #expect(error == expected, "\(name)")
            #expect(editor.document.uncommittedOperationCount == 0, "\(name): something was applied")
        }
        let wrongTypes: [(String, (Fields) -> Fields)] = [
            ("tagId", { Self.setting("tagId", .string("not a uuid"), in: $0) }),
            ("images", { Self.setting("images", .string("a.png"), in: $0) }),
            ("comment", { Self.setting("comment", .integer(5), in: $0) }),
            ("rating", { Self.setting("rating", .string("five"), in: $0) }),
        ]
        for (field, change) in wrongTypes {
            let (editor, error) = try Self.edit(change)
            guard case .wrongType(let named, _)? = error else { Issue.record("\(field): \(String(describing: error))"); continue }
            #expect(named == field)
            #expect(editor.document.uncommittedOperationCount == 0)
        }
    }

    @Test("a refused edit after a valid one applies neither")
    func allOrNothing() throws {
        let (editor, error) = try Self.edit { Self.setting("endTime", .string("2024-01-01T08:00:00Z"), in: Self.setting("comment", .string("changed"), in: $0)) }
        #expect(error == .endBeforeStart)
        let record = editor.object
        guard case .object(let text, .text)? = editor.document.value(of: record, key: "comment") else { Issue.record("no text"); return }
        #expect(editor.document.text(of: text) == "Meeting with Ana")
    }

    @Test("an optional field written as null or left out is removed")
    func removals() throws {
        let (withEnd, _) = try Self.edit { Self.setting("endTime", .string("2024-01-01T10:00:00Z"), in: $0) }
        let record = withEnd.object
        for removal in [JSONValue.null, nil] {
            var editor = withEnd
            let current = Self.view(editor.document, record)
            try editor.apply(Self.setting("endTime", removal, in: current), currentView: current)
            #expect(editor.document.value(of: record, key: "endTime") == nil)
        }
        // An unknown key left out is removed too.
        let (dropped, error) = try Self.edit { Self.setting("rating", nil, in: $0) }
        #expect(error == nil)
        #expect(dropped.document.value(of: dropped.object, key: "rating") == nil)
    }

    @Test("image lists are edited in place, and left out means empty")
    func imageLists() throws {
        let (edited, error) = try Self.edit { Self.setting("images", .array([.string("b.png"), .string("a.png")]), in: $0) }
        #expect(error == nil)
        #expect(RecordView.images(of: edited.object, in: edited.document) == ["b.png", "a.png"])
        let (emptied, error2) = try Self.edit { Self.setting("images", nil, in: $0) }
        #expect(error2 == nil)
        #expect(RecordView.images(of: emptied.object, in: emptied.document).isEmpty)
        #expect(emptied.document.uncommittedOperationCount == 1, "one delete for one image")
    }

    @Test("an unknown key keeps its stored type; a new one takes JSON's")
    func otherKeys() throws {
        let (number, error) = try Self.edit { Self.setting("rating", .integer(4), in: $0) }
        #expect(error == nil)
        #expect(number.document.value(of: number.object, key: "rating") == .scalar(.int(4)))
        let (added, error2) = try Self.edit { Self.setting("project", .string("Minuta"), in: $0) }
        #expect(error2 == nil)
        #expect(added.document.value(of: added.object, key: "project") == .scalar(.string("Minuta")))
    }

    @Test("tag fields: a colour is #RRGGBB, isArchived a boolean, name required")
    func tagRules() throws {
        var document = Document()
        let tag = try document.putObject(.map, forKey: Self.tagID)
        try document.put(.string("Work"), forKey: "name", in: tag)
        try document.put(.timestamp(1_704_099_600_000), forKey: "createdAt", in: tag)
        document.commit(time: 0)
        let current: Fields = [("name", .string("Work")), ("createdAt", .string("2024-01-01T09:00:00.000Z"))]
        var editor = ObjectEditor(document: document, object: tag, rules: FieldRule.tag)
        try editor.apply(current + [("color", .string("#4a90D9")), ("isArchived", .bool(true))], currentView: current)
        #expect(editor.document.value(of: tag, key: "color") == .scalar(.string("#4a90D9")))
        #expect(editor.document.value(of: tag, key: "isArchived") == .scalar(.boolean(true)))
        let refused: [(Fields, String?)] = [
            (current + [("color", .string("blue"))], "color"),
            (current + [("color", .string("#4A90D"))], "color"),
            (current + [("isArchived", .string("yes"))], "isArchived"),
        ]
        for (members, field) in refused {
            var editor = ObjectEditor(document: document, object: tag, rules: FieldRule.tag)
            do {
                try editor.apply(members, currentView: current)
                Issue.record("\(members.map(\.key)) was accepted")
            } catch {
                guard case .wrongType(let named, _) = error else { Issue.record("\(error)"); continue }
                #expect(named == field)
            }
        }
        var nameless = ObjectEditor(document: document, object: tag, rules: FieldRule.tag)
        #expect(throws: RecordInputError.missingField("name")) { try nameless.apply([current[1]], currentView: current) }
    }

    @Test("every tag field is required: none may be removed or set to null, and a new tag lacking one is refused")
    func tagFieldsRequired() throws {
        var document = Document()
        let tag = try document.putObject(.map, forKey: Self.tagID)
        try document.put(.string("Work"), forKey: "name", in: tag)
        try document.put(.string("#4A90D9"), forKey: "color", in: tag)
        try document.put(.timestamp(1_704_099_600_000), forKey: "createdAt", in: tag)
        try document.put(.boolean(false), forKey: "isArchived", in: tag)
        document.commit(time: 0)
        let current: Fields = [("name", .string("Work")), ("color", .string("#4A90D9")),
                               ("createdAt", .string("2024-01-01T09:00:00.000Z")), ("isArchived", .bool(false))]
        for field in current.map(\.key) {
            for members in [current.filter { $0.key != field }, Self.setting(field, JSONValue.null, in: current)] {
                var editor = ObjectEditor(document: document, object: tag, rules: FieldRule.tag)
                #expect(throws: RecordInputError.missingField(field)) { try editor.apply(members, currentView: current) }
                #expect(editor.document.value(of: tag, key: field) != nil)
            }
            var fresh = Document()
            let new = try fresh.putObject(.map, forKey: Self.tagID)
            var editor = ObjectEditor(document: fresh, object: new, rules: FieldRule.tag)
            #expect(throws: RecordInputError.missingField(field)) {
                try editor.apply(current.filter { $0.key != field }, currentView: [], isNew: true)
            }
        }
        // A tag another device wrote without a colour keeps an edit of its name: the edit removes nothing.
        var colourless = Document()
        let written = try colourless.putObject(.map, forKey: Self.tagID)
        try colourless.put(.string("Work"), forKey: "name", in: written)
        try colourless.put(.timestamp(1_704_099_600_000), forKey: "createdAt", in: written)
        try colourless.put(.boolean(false), forKey: "isArchived", in: written)
        colourless.commit(time: 0)
        let shown = current.filter { $0.key != "color" }
        var editor = ObjectEditor(document: colourless, object: written, rules: FieldRule.tag)
        try editor.apply(Self.setting("name", .string("Deep work"), in: shown), currentView: shown)
        #expect(editor.document.value(of: written, key: "name") == .scalar(.string("Deep work")))
        #expect(editor.document.value(of: written, key: "color") == nil)
    }

    @Test("editing in place and taking the document give the same document, and leave the editor none")
    func inPlaceAndTake() throws {
        let (document, record) = try Self.month()
        let current = Self.view(document, record)
        let members = Self.setting("comment", .string("Meeting"), in: current)
        var copying = ObjectEditor(document: document, object: record, rules: FieldRule.record)
        try copying.apply(members, currentView: current)
        var inPlace = ObjectEditor(document: document, object: record, rules: FieldRule.record)
        try inPlace.applyInPlace(members, currentView: current)
        var taken = inPlace.takeDocument()
        var copied = copying.document
        #expect(JSONValue.object(Self.view(taken, record)) == JSONValue.object(Self.view(copied, record)))
        #expect(inPlace.document.keys(of: .root).isEmpty, "the editor kept a reference to the document")
        _ = taken.commit(time: 1)
        _ = copied.commit(time: 1)
        #expect(Self.view(taken, record).first { $0.key == "comment" }?.value == .string("Meeting"))
    }
}
