@testable import MinutaStore
import Testing

/// `HiddenCopies` alone: the copies of records held twice that a month's view leaves out, as
/// `.minutafs/status` lists them.
struct HiddenCopiesTests {
    static let january = Month(year: 2024, month: 1)!
    static let february = Month(year: 2024, month: 2)!
    static let march = Month(year: 2024, month: 3)!
    static let first = "0A000000-0000-4000-8000-000000000001"
    static let second = "0B000000-0000-4000-8000-000000000002"

    @Test("nothing is listed before a view leaves something out")
    func emptyListsNothing() {
        #expect(HiddenCopies().all.isEmpty)
    }

    @Test("a copy left out names its document and the folder that shows the record")
    func hideNamesDocumentAndFolder() {
        var copies = HiddenCopies()
        copies.hide(Self.first, in: Self.february, shownIn: Self.january)
        #expect(copies.all == [Store.HiddenCopy(id: Self.first, document: "records/2024/02.automerge", shownIn: "records/2024/01")])
    }

    @Test("the same record left out twice by one month is listed once, whatever the case of its id")
    func duplicatesAreOne() {
        var copies = HiddenCopies()
        copies.hide(Self.first, in: Self.february, shownIn: Self.january)
        copies.hide(Self.first.lowercased(), in: Self.february, shownIn: Self.march)
        #expect(copies.all.count == 1)
        #expect(copies.all.first?.shownIn == "records/2024/03", "the view rendered last says where the record is")
    }

    @Test("copies are listed by document, then id, whatever order they were hidden in")
    func orderIsByDocumentThenID() {
        var copies = HiddenCopies()
        copies.hide(Self.second, in: Self.march, shownIn: Self.january)
        copies.hide(Self.second, in: Self.february, shownIn: Self.january)
        copies.hide(Self.first, in: Self.march, shownIn: Self.january)
        copies.hide(Self.first, in: Self.february, shownIn: Self.january)
        #expect(copies.all.map { "\($0.document) \($0.id)" } == [
            "records/2024/02.automerge \(Self.first)", "records/2024/02.automerge \(Self.second)",
            "records/2024/03.automerge \(Self.first)", "records/2024/03.automerge \(Self.second)",
        ])
    }

    @Test("forgetting a month drops only what that month's view left out")
    func forgetOneMonth() {
        var copies = HiddenCopies()
        copies.hide(Self.first, in: Self.february, shownIn: Self.january)
        copies.hide(Self.second, in: Self.march, shownIn: Self.january)
        copies.forget(in: Self.february)
        #expect(copies.all.map(\.id) == [Self.second])
        copies.forget(in: Self.january)  // a month that left nothing out
        #expect(copies.all.map(\.id) == [Self.second])
        copies.forget(in: Self.march)
        #expect(copies.all.isEmpty)
    }
}
