import AutomergeKit
@testable import MinutaStore
import Testing

/// `MonthView.edited` alone: a month's view brought up to date after a save without rendering the month
/// again. The times each file shows are checked whichever way they are found (few records changed here,
/// or more than the month shows).
struct MonthViewEditsTests {
    /// Ids in any case: a view's ids are as the document spells them, its keys upper-cased.
    static let ids = (1...4).map { "6c1b2a30-0000-4000-8000-00000000000\($0)" }

    static func view() -> MonthView {
        MonthView(files: ids.enumerated().map { RecordFile(name: "2024-01-0\($0.offset + 1)_090000.json", id: $0.element, contents: [], modificationTime: 5) },
                  startTimes: ids.map { _ in nil })
    }

    @Test("with nothing changed here, every file shows the document's time")
    func documentTimeForAll() throws {
        let edited = try #require(Self.view().edited(changedRecords: [], in: Document(), fileTime: 900, recentChanges: RecentRecordChanges()))
        #expect(edited.files.map(\.modificationTime) == [900, 900, 900, 900])
        #expect(edited.files.map(\.name) == Self.view().files.map(\.name))
    }

    @Test("records changed here lately show their change time, found by id in any case; the others the document's")
    func changeTimesOfFewRecords() throws {
        var recent = RecentRecordChanges()
        recent.noteChange(of: RecordID(Self.ids[1].uppercased()), at: 700)
        recent.noteChange(of: RecordID("6C1B2A30-0000-4000-8000-0000000000FF"), at: 800)  // another month's record
        let edited = try #require(Self.view().edited(changedRecords: [], in: Document(), fileTime: 900, recentChanges: recent))
        #expect(edited.files.map(\.modificationTime) == [900, 700, 900, 900])
    }

    @Test("when this store changed more records than the month shows, each file still gets its own time")
    func changeTimesOfManyRecords() throws {
        var recent = RecentRecordChanges()
        recent.noteChange(of: RecordID(Self.ids[3]), at: 650)
        for other in 0..<10 { recent.noteChange(of: RecordID("6C1B2A30-0000-4000-8000-0000000001\(10 + other)"), at: 100) }
        #expect(recent.changedRecords.count > Self.view().files.count)
        let edited = try #require(Self.view().edited(changedRecords: [], in: Document(), fileTime: 900, recentChanges: recent))
        #expect(edited.files.map(\.modificationTime) == [900, 900, 900, 650])
    }
}
