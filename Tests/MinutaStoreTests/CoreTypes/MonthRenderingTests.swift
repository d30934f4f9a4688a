import AutomergeKit
@testable import MinutaStore
import Testing

/// `MonthRendering` alone: a month's record files from its document, named from their starts and
/// sorted, with the change times this store noted; an earlier view brought up to date after an edit;
/// and the copies of a record held twice left out where SPEC section 4 says, or no view at all when
/// a month it must look into is not at hand (then the store renders under its lock).
struct MonthRenderingTests {
    static let january = Month(year: 2024, month: 1)!, february = Month(year: 2024, month: 2)!
    /// 2024-01-15 00:00 UTC and 2024-02-15 00:00 UTC, in milliseconds.
    static let midJanuary: Int64 = 1_705_276_800_000, midFebruary: Int64 = 1_707_955_200_000
    static let fileTime = 1_706_000_000

    static func id(_ number: Int) -> String { "0A000000-0000-4000-8000-\(String(format: "%012d", number))" }

    /// A document holding `records` (number, start in milliseconds), committed at `commitTime` (seconds).
    static func document(_ records: [(Int, Int64)], commitTime: Int64 = 1_706_000_000) throws -> Document {
        var document = Document()
        for (number, start) in records {
            let record = try document.putObject(.map, forKey: id(number))
            try document.put(.timestamp(start), forKey: "startTime", in: record)
            try document.put(.string("record \(number)"), forKey: "comment", in: record)
        }
        document.commit(time: commitTime)
        return document
    }

    static func rendering(_ document: Document, recentChanges: RecentRecordChanges = RecentRecordChanges(),
                          reusableView: (view: MonthView, changedRecords: Set<RecordID>)? = nil) -> MonthRendering {
        MonthRendering(document: document, reusableView: reusableView, fileTime: fileTime, recentChanges: recentChanges, timeZone: .utc)
    }

    /// The holder index after reading `contents` (each month's record ids) from files.
    static func holders(_ contents: [Month: [String]]) -> RecordHolderIndex {
        var index = RecordHolderIndex()
        let files = contents.keys.sorted().map { month in
            (month: month, identity: Optional(BackingFiles.Identity(device: 1, inode: UInt64(month.month), size: 1,
                                                                     modificationSeconds: 1, modificationNanoseconds: 0)))
        }
        _ = index.update(files: files) { Set(contents[$0] ?? []) }
        return index
    }

    /// Renders `document` as `month`'s with the other months' documents `others` at hand.
    static func render(_ document: Document, as month: Month, holders: RecordHolderIndex?, others: [Month: Document],
                       recentChanges: RecentRecordChanges = RecentRecordChanges()) -> MonthRendering.Rendered? {
        let rendering = rendering(document, recentChanges: recentChanges)
        return rendering.render { record in
            rendering.placeCopy(of: record, in: month, holders: holders) { other in others[other].map { .document($0) } ?? .notAtHand }
        }
    }

    @Test("files are named from their starts and sorted by name; a record this store changed shows its change time, the others the file's")
    func namesAndTimes() throws {
        let document = try Self.document([(2, Self.midJanuary + 3_600_000), (1, Self.midJanuary)])
        var changes = RecentRecordChanges()
        changes.noteChange(of: RecordID(Self.id(2)), at: Self.fileTime + 50)
        let rendered = try #require(Self.render(document, as: Self.january, holders: Self.holders([Self.january: [Self.id(1), Self.id(2)]]),
                                                others: [:], recentChanges: changes))
        #expect(rendered.view.files.map(\.name) == ["2024-01-15_000000.json", "2024-01-15_010000.json"])
        #expect(rendered.view.files.map(\.id) == [Self.id(1), Self.id(2)])
        #expect(rendered.view.files.map(\.modificationTime) == [Self.fileTime, Self.fileTime + 50])
        let parsed = try JSONParser.parse(rendered.view.files[1].contents)
        #expect(parsed["comment"] == .string("record 2"))
        #expect(rendered.hidden?.isEmpty == true)
        #expect(rendered.showsWholeDocument)
    }

    @Test("an earlier view is brought up to date after an edit: the record edited rendered again, the copies left out unchanged")
    func reusedAfterEdit() throws {
        var document = try Self.document([(1, Self.midJanuary), (2, Self.midJanuary + 3_600_000)])
        let first = try #require(Self.render(document, as: Self.january, holders: nil, others: [:]))
        let record = try #require(RecordView.object(Self.id(2), in: document))
        try document.put(.string("edited"), forKey: "comment", in: record)
        let rendering = Self.rendering(document, reusableView: (first.view, [RecordID(Self.id(2))]))
        let rendered = try #require(rendering.render { _ in MonthRendering.CopyPlace.unknown })
        #expect(rendered.hidden == nil, "the copies left out were worked out again")
        #expect(!rendered.showsWholeDocument)
        #expect(try JSONParser.parse(rendered.view.files[1].contents)["comment"] == .string("edited"))
        #expect(rendered.view.files[0].contents == first.view.files[0].contents)
    }

    @Test("a copy whose start falls in another month that holds the record too is shown there; one whose home lacks it is shown here")
    func shownInItsHomeMonth() throws {
        // Record 1 starts in February and both documents hold it (a move synced in one only);
        // record 2 starts in February too, but February does not hold it (a phone filed it here).
        let january = try Self.document([(1, Self.midFebruary), (2, Self.midFebruary + 60_000), (3, Self.midJanuary)])
        let february = try Self.document([(1, Self.midFebruary)])
        let holders = Self.holders([Self.january: [Self.id(1), Self.id(2), Self.id(3)], Self.february: [Self.id(1)]])
        let rendered = try #require(Self.render(january, as: Self.january, holders: holders, others: [Self.february: february]))
        #expect(rendered.view.files.map(\.id) == [Self.id(3), Self.id(2)])
        #expect(rendered.hidden?.map(\.id) == [Self.id(1)])
        #expect(rendered.hidden?.map(\.shownIn) == [Self.february])
        #expect(!rendered.showsWholeDocument, "a view leaving a copy out would be kept in the view cache as the file's")
    }

    @Test("two copies each filed in its own month: the one changed last is shown, on a tie the later month's")
    func copyChangedLastWins() throws {
        let holders = Self.holders([Self.january: [Self.id(1)], Self.february: [Self.id(1)]])
        let olderJanuary = try Self.document([(1, Self.midJanuary)], commitTime: 1_706_000_000)
        let newerFebruary = try Self.document([(1, Self.midFebruary)], commitTime: 1_706_000_100)
        let januaryView = try #require(Self.render(olderJanuary, as: Self.january, holders: holders, others: [Self.february: newerFebruary]))
        #expect(januaryView.view.files.isEmpty)
        #expect(januaryView.hidden?.map(\.shownIn) == [Self.february])
        let februaryView = try #require(Self.render(newerFebruary, as: Self.february, holders: holders, others: [Self.january: olderJanuary]))
        #expect(februaryView.view.files.map(\.id) == [Self.id(1)])

        let newerJanuary = try Self.document([(1, Self.midJanuary)], commitTime: 1_706_000_200)
        #expect(try #require(Self.render(newerJanuary, as: Self.january, holders: holders, others: [Self.february: newerFebruary])).view.files.count == 1)

        let tiedFebruary = try Self.document([(1, Self.midFebruary)], commitTime: 1_706_000_000)
        #expect(try #require(Self.render(olderJanuary, as: Self.january, holders: holders, others: [Self.february: tiedFebruary])).view.files.isEmpty)
        #expect(try #require(Self.render(tiedFebruary, as: Self.february, holders: holders, others: [Self.january: olderJanuary])).view.files.count == 1)
    }

    @Test("no view when a month holding another copy is not at hand: the renderer never guesses which copy is shown")
    func notAtHand() throws {
        let holders = Self.holders([Self.january: [Self.id(1)], Self.february: [Self.id(1)]])
        let january = try Self.document([(1, Self.midJanuary)])
        #expect(Self.render(january, as: Self.january, holders: holders, others: [:]) == nil)
        // Without an index, a record starting in another month needs that month's document.
        let filedAway = try Self.document([(2, Self.midFebruary)])
        #expect(Self.render(filedAway, as: Self.january, holders: nil, others: [:]) == nil)
        #expect(Self.render(filedAway, as: Self.january, holders: nil, others: [Self.february: Document()])?.view.files.count == 1)
    }
}
