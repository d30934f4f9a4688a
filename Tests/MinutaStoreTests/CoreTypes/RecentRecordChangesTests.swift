@testable import MinutaStore
import Testing

/// `RecentRecordChanges` alone: the change times the listings show for records this store changed, and
/// the former names (a temporary name, the old month's folder) that keep finding a moved record until
/// their grace period is over.
struct RecentRecordChangesTests {
    static let january = Month(year: 2024, month: 1)!
    static let february = Month(year: 2024, month: 2)!
    static let id = "6C1B2A30-0000-4000-8000-000000000001"

    @Test("nothing is known of a record or a name before it is noted")
    func emptyKnowsNothing() {
        let changes = RecentRecordChanges()
        #expect(changes.changeTime(of: RecordID(Self.id)) == nil)
        #expect(changes.formerName("records/2024/01/tmp.json", now: 0) == nil)
    }

    @Test("a change time is found by the record's id in any case, and a later change replaces it")
    func changeTimesByIDWithoutCase() {
        var changes = RecentRecordChanges()
        changes.noteChange(of: RecordID(Self.id.lowercased()), at: 100)
        #expect(changes.changeTime(of: RecordID(Self.id)) == 100)
        changes.noteChange(of: RecordID(Self.id), at: 250)
        #expect(changes.changeTime(of: RecordID(Self.id.lowercased())) == 250)
        #expect(changes.changeTime(of: RecordID("6C1B2A30-0000-4000-8000-000000000002")) == nil)
    }

    @Test("a former name finds its record until its time, inclusive, and not after")
    func formerNameUntilItsTime() {
        var changes = RecentRecordChanges()
        changes.noteFormerName("records/2024/01/tmp.json", of: Self.id, in: Self.february, until: 110, now: 100)
        let found = changes.formerName("records/2024/01/tmp.json", now: 110)
        #expect(found == RecentRecordChanges.FormerName(id: Self.id, month: Self.february, until: 110))
        #expect(changes.formerName("records/2024/01/tmp.json", now: 111) == nil)
        // Only that exact path finds it.
        #expect(changes.formerName("records/2024/01/TMP.json", now: 100) == nil)
        #expect(changes.formerName("records/2024/01", now: 100) == nil)
    }

    @Test("a name noted again points at the newer move")
    func renotedNameReplaces() {
        var changes = RecentRecordChanges()
        changes.noteFormerName("records/2024/01/a.json", of: Self.id, in: Self.january, until: 200, now: 100)
        changes.noteFormerName("records/2024/01/a.json", of: "6C1B2A30-0000-4000-8000-000000000009", in: Self.february, until: 150, now: 100)
        let found = changes.formerName("records/2024/01/a.json", now: 120)
        #expect(found?.id == "6C1B2A30-0000-4000-8000-000000000009")
        #expect(found?.month == Self.february)
        #expect(changes.formerName("records/2024/01/a.json", now: 160) == nil, "the newer, shorter grace period applies")
    }

    @Test("noting a name forgets the names whose time is over, so memory stays bounded")
    func expiredNamesAreForgotten() {
        var changes = RecentRecordChanges()
        changes.noteFormerName("records/2024/01/old.json", of: Self.id, in: Self.january, until: 10, now: 0)
        changes.noteFormerName("records/2024/01/live.json", of: Self.id, in: Self.january, until: 100, now: 0)
        // At 20 the first name's time is over: noting another name drops it.
        changes.noteFormerName("records/2024/01/new.json", of: Self.id, in: Self.february, until: 100, now: 20)
        #expect(changes.formerName("records/2024/01/old.json", now: 5) == nil, "an expired name was kept")
        #expect(changes.formerName("records/2024/01/live.json", now: 20) != nil)
        #expect(changes.formerName("records/2024/01/new.json", now: 20) != nil)
    }

    @Test("a forgotten name no longer finds the record; forgetting an unknown name changes nothing")
    func forgetFormerName() {
        var changes = RecentRecordChanges()
        changes.noteFormerName("records/2024/01/a.json", of: Self.id, in: Self.january, until: 100, now: 0)
        changes.noteFormerName("records/2024/01/b.json", of: Self.id, in: Self.january, until: 100, now: 0)
        changes.forgetFormerName("records/2024/01/a.json")
        changes.forgetFormerName("records/2024/01/never.json")
        #expect(changes.formerName("records/2024/01/a.json", now: 0) == nil)
        #expect(changes.formerName("records/2024/01/b.json", now: 0)?.id == Self.id)
    }
}
