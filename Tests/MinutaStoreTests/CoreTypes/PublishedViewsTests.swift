@testable import MinutaStore
import Testing

/// `PublishedViews` alone: what readers are answered from without the store's lock.
struct PublishedViewsTests {
    static let january = Month(year: 2024, month: 1)!
    static let february = Month(year: 2024, month: 2)!

    static func view(_ names: [String]) -> MonthView {
        MonthView(files: names.map { RecordFile(name: $0, id: $0, contents: Array($0.utf8), modificationTime: 0) },
                  startTimes: names.map { _ in nil })
    }

    @Test("nothing is published at first: every read goes to the store")
    func emptyAtFirst() {
        let views = PublishedViews()
        #expect(views.view(of: Self.january) == nil)
        #expect(views.loadedDocumentCount == 0)
    }

    @Test("a published view is what readers get, month by month, with the loaded count")
    func publishedViewIsRead() {
        let views = PublishedViews()
        views.publish([(Self.january, Self.view(["a.json", "b.json"]))], loadedDocumentCount: 2)
        #expect(views.view(of: Self.january)?.files.map(\.name) == ["a.json", "b.json"])
        #expect(views.view(of: Self.february) == nil)
        #expect(views.loadedDocumentCount == 2)
    }

    @Test("publishing nil for a month withdraws its view; other months keep theirs")
    func nilWithdraws() {
        let views = PublishedViews()
        views.publish([(Self.january, Self.view(["a.json"])), (Self.february, Self.view(["c.json"]))], loadedDocumentCount: 2)
        views.publish([(Self.january, nil)], loadedDocumentCount: 1)
        #expect(views.view(of: Self.january) == nil)
        #expect(views.view(of: Self.february)?.files.map(\.name) == ["c.json"])
        #expect(views.loadedDocumentCount == 1)
    }

    @Test("a later view replaces an earlier one")
    func laterReplaces() {
        let views = PublishedViews()
        views.publish([(Self.january, Self.view(["a.json"]))], loadedDocumentCount: 1)
        views.publish([(Self.january, Self.view(["b.json"]))], loadedDocumentCount: 1)
        #expect(views.view(of: Self.january)?.indexByName["b.json"] == 0)
        #expect(views.view(of: Self.january)?.indexByName["a.json"] == nil)
    }
}
