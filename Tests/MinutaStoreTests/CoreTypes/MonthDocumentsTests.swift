import AutomergeKit
@testable import MinutaStore
import Testing

/// `MonthDocuments` alone: a month is held decoded or parked, never both, and every change of a
/// month's entry is noted for publishing.
struct MonthDocumentsTests {
    static let january = Month(year: 2024, month: 1)!
    static let february = Month(year: 2024, month: 2)!

    static func view(_ names: [String]) -> MonthView {
        MonthView(files: names.map { RecordFile(name: $0, id: $0, contents: [], modificationTime: 0) }, startTimes: names.map { _ in nil })
    }

    static func loaded(view names: [String]?) -> LoadedDocument {
        LoadedDocument(document: Document(actor: .random()), identity: nil, view: names.map(view), savedChangeCount: 0)
    }

    static func parked(view names: [String]?) -> ParkedMonth {
        ParkedMonth(bytes: [1, 2, 3], identity: nil, view: names.map(view), hasConflicts: false, lastReadHeads: [])
    }

    @Test("holding a month decoded drops its parked form, and parking it drops the decoded one")
    func decodedOrParked() {
        var months = MonthDocuments()
        months.park(Self.january, as: Self.parked(view: ["p.json"]))
        #expect(months.parked(Self.january) != nil)
        months[Self.january] = Self.loaded(view: ["d.json"])
        #expect(months.parked(Self.january) == nil)
        #expect(months[Self.january] != nil)
        months.park(Self.january, as: Self.parked(view: ["p.json"]))
        #expect(months[Self.january] == nil)
        #expect(months.parked(Self.january) != nil)
    }

    @Test("the view of a month is its parked form's or its decoded document's")
    func viewOfEither() {
        var months = MonthDocuments()
        months.park(Self.january, as: Self.parked(view: ["p.json"]))
        months[Self.february] = Self.loaded(view: ["d.json"])
        #expect(months.view(of: Self.january)?.files.map(\.name) == ["p.json"])
        #expect(months.view(of: Self.february)?.files.map(\.name) == ["d.json"])
        #expect(months.view(of: Month(year: 2024, month: 3)!) == nil)
    }

    @Test("every change of an entry is noted once, and taking the changes empties them")
    func changesNoted() {
        var months = MonthDocuments()
        #expect(months.takeChangedMonths().isEmpty)
        months[Self.january] = Self.loaded(view: nil)
        months.park(Self.february, as: Self.parked(view: ["p.json"]))
        months.park(Self.february, as: Self.parked(view: ["p.json"]))
        #expect(months.takeChangedMonths() == [Self.january, Self.february])
        #expect(months.takeChangedMonths().isEmpty)
        months.dropParkedView(of: Self.january)  // not parked: nothing changes
        #expect(months.takeChangedMonths().isEmpty)
        months.dropParkedView(of: Self.february)
        #expect(months.parked(Self.february)?.view == nil)
        #expect(months.takeChangedMonths() == [Self.february])
        months.dropParkedView(of: Self.february)  // already without a view
        #expect(months.takeChangedMonths().isEmpty)
    }

    @Test("use is counted so the least recently used month can be parked")
    func useOrder() {
        var months = MonthDocuments()
        months.markUsed(Self.january)
        months.markUsed(Self.february)
        #expect((months.lastUse[Self.january] ?? 0) < (months.lastUse[Self.february] ?? 0))
        months.markUsed(Self.january)
        #expect((months.lastUse[Self.january] ?? 0) > (months.lastUse[Self.february] ?? 0))
    }
}
