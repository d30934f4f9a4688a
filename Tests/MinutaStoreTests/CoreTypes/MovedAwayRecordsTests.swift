import AutomergeKit
@testable import MinutaStore
import Testing

/// `MovedAwayRecords` alone: the records this store moved to another month, whose old objects are
/// watched for edits, kept in step with what `MovedRecordMemory` keeps on disk.
struct MovedAwayRecordsTests {
    static let january = Month(year: 2024, month: 1)!
    static let february = Month(year: 2024, month: 2)!
    static let march = Month(year: 2024, month: 3)!
    static let first = RecordID("0A000000-0000-4000-8000-000000000001")
    static let second = RecordID("0B000000-0000-4000-8000-000000000002")

    /// An object id of a real document, as a moved record's old object is.
    static func object() throws -> ObjectID {
        var document = Document()
        return try document.putObject(.map, forKey: first.text)
    }

    static func move(from source: Month, to destination: Month, comment: String, at time: Int) throws -> MovedAway {
        MovedAway(source: source, object: try object(), destination: destination,
                  fieldsAtMove: [("comment", .string(comment))], fieldsWritten: [("comment", .string(comment))], movedAt: time)
    }

    static func comments(_ fields: [(key: String, value: JSONValue)]?) -> [JSONValue]? {
        fields?.filter { $0.key == "comment" }.map(\.value)
    }

    @Test("empty, and seeded with the moves the memory on disk kept")
    func initialMoves() throws {
        #expect(MovedAwayRecords().all.isEmpty)
        let seeded = MovedAwayRecords([Self.first: try Self.move(from: Self.january, to: Self.february, comment: "a", at: 1)])
        #expect(Array(seeded.all.keys) == [Self.first])
        #expect(seeded.all[Self.first]?.destination == Self.february)
    }

    @Test("a later move of the same record replaces the earlier one; other records keep theirs")
    func laterMoveReplaces() throws {
        var moves = MovedAwayRecords()
        moves.remember(try Self.move(from: Self.january, to: Self.february, comment: "a", at: 1), of: Self.first)
        moves.remember(try Self.move(from: Self.january, to: Self.march, comment: "b", at: 1), of: Self.second)
        moves.remember(try Self.move(from: Self.february, to: Self.march, comment: "c", at: 2), of: RecordID(Self.first.text.lowercased()))
        #expect(moves.all.count == 2)
        #expect(moves.all[Self.first]?.source == Self.february)
        #expect(moves.all[Self.first]?.destination == Self.march)
        #expect(moves.all[Self.first]?.movedAt == 2)
        #expect(moves.all[Self.second]?.destination == Self.march)
    }

    @Test("carrying edits moves the record's fields at the move on, and nothing else; an unknown record is ignored")
    func carriedEdits() throws {
        var moves = MovedAwayRecords()
        moves.remember(try Self.move(from: Self.january, to: Self.february, comment: "a", at: 1), of: Self.first)
        moves.noteCarried(Self.first, fieldsNow: [("comment", .string("edited on the phone"))])
        #expect(Self.comments(moves.all[Self.first]?.fieldsAtMove) == [.string("edited on the phone")])
        #expect(Self.comments(moves.all[Self.first]?.fieldsWritten) == [.string("a")], "what this store wrote stays")
        moves.noteCarried(Self.second, fieldsNow: [("comment", .string("x"))])
        #expect(moves.all[Self.second] == nil, "carrying for a record never moved made up a move")
    }

    @Test("moves the memory did not keep are forgotten; moves made since it was saved stay")
    func forgetNotKept() throws {
        var moves = MovedAwayRecords()
        let old = try Self.move(from: Self.january, to: Self.february, comment: "a", at: 1)
        let kept = try Self.move(from: Self.january, to: Self.march, comment: "b", at: 2)
        moves.remember(old, of: Self.first)
        moves.remember(kept, of: Self.second)
        let saved = moves.all
        // Made after the memory was saved.
        let third = RecordID("0C000000-0000-4000-8000-000000000003")
        moves.remember(try Self.move(from: Self.march, to: Self.february, comment: "c", at: 3), of: third)
        moves.forgetNotKept(of: saved, kept: [Self.second: kept])
        #expect(Set(moves.all.keys) == [Self.second, third])
        // Keeping everything forgets nothing.
        let before = Set(moves.all.keys)
        moves.forgetNotKept(of: moves.all, kept: moves.all)
        #expect(Set(moves.all.keys) == before)
    }
}
