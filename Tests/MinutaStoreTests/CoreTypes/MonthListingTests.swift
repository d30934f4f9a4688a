import Foundation
@testable import MinutaStore
import Testing
import TestSupport

/// `MonthListing` alone: which months and years a backing folder has.
struct MonthListingTests {
    static func listing(_ path: String) -> MonthListing {
        let events = StoreEvents(log: { _ in })
        return MonthListing(backingFolder: BackingFolder(path: path, events: events), deletedMonths: DeletedDocuments(events: events),
                            waitingCopyReader: WaitingCopyReader(path: path, actor: .random(), isMerging: false))
    }

    @Test("a month is listed for its document or its image folder; other names are not months")
    func monthsAndYears() throws {
        try withTemporaryDirectory { folder in
            let manager = FileManager.default
            try manager.createDirectory(atPath: folder + "/records/2024/03", withIntermediateDirectories: true)
            try manager.createDirectory(atPath: folder + "/records/2023", withIntermediateDirectories: true)
            try manager.createDirectory(atPath: folder + "/records/notes", withIntermediateDirectories: true)
            try Data([1]).write(to: URL(fileURLWithPath: folder + "/records/2024/01.automerge"))
            try Data([1]).write(to: URL(fileURLWithPath: folder + "/records/2024/readme.txt"))
            let listing = Self.listing(folder)
            #expect(try listing.months() == [Month(year: 2024, month: 1)!, Month(year: 2024, month: 3)!])
            #expect(try listing.months(inYear: "2023").isEmpty)
            #expect(try listing.years().sorted() == ["2023", "2024"])
            #expect(listing.hasMonth(Month(year: 2024, month: 1)!))
            #expect(listing.hasMonth(Month(year: 2024, month: 3)!))
            #expect(!listing.hasMonth(Month(year: 2024, month: 2)!))
        }
    }

    @Test("a folder without records has no months")
    func empty() throws {
        try withTemporaryDirectory { folder in
            let listing = Self.listing(folder)
            let months = try listing.months()
            let years = try listing.years()
            #expect(months.isEmpty)
            #expect(years.isEmpty)
        }
    }
}
