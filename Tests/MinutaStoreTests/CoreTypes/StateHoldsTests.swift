import Foundation
@testable import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// How often the lock every month shares (`MonthReplicas.state`) is taken: a read of a month whose
/// view is current takes it not at all (`PublishedViews`), and a save of a record takes it four
/// times, each a short hold (the record found, the month checked out, the new view's inputs copied,
/// the month checked in), however many saves came before.
struct StateHoldsTests {
    static let january = Month(year: 2024, month: 1)!

    @Test("a save of a record takes the shared state lock four times, and a read after it none")
    func savesTakeFewHolds() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let file = try #require(try store.recordFiles(in: Self.january).first)
            let text = String(decoding: file.contents, as: UTF8.self)
            for round in 0..<5 {
                let edited = text.replacingOccurrences(of: #""images""#, with: #""comment": "edit \#(round)", "images""#)
                #expect(edited != text)
                let beforeSave = store.replicas.stateHolds.load(ordering: .relaxed)
                let outcome = try store.writeRecordFile(Array(edited.utf8), named: file.name, in: Self.january)
                let saveHolds = store.replicas.stateHolds.load(ordering: .relaxed) - beforeSave
                #expect(outcome.changed && outcome.fileName == file.name)
                #expect(saveHolds <= 4, "save \(round) took the state lock \(saveHolds) times")

                let beforeRead = store.replicas.stateHolds.load(ordering: .relaxed)
                let read = try #require(try store.recordFile(named: file.name, in: Self.january))
                #expect(String(decoding: read.contents, as: UTF8.self).contains("edit \(round)"))
                #expect(store.replicas.stateHolds.load(ordering: .relaxed) == beforeRead, "a read of a current view took the state lock")
            }
        }
    }
}
