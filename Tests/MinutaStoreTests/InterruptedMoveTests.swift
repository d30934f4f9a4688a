import AutomergeKit
import Foundation
@testable import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// A record moved to another month is saved there first and removed from its old month second; a
/// process killed between the two saves leaves it in both documents. The move is journaled outside the
/// backing folder, and the next store opened on the folder finishes it: the record is in one month.
@Suite("Record moves a killed process left half done")
struct InterruptedMoveTests {
    static let id = "A0400CA0-E4B2-4E0E-B1DC-02BC9EAA0586"
    static let may = Month(year: 2024, month: 5)!
    static let june = Month(year: 2024, month: 6)!
    static let image = "A0400CA0-E4B2-4E0E-B1DC-02BC9EAA0586_0.jpg"

    /// Moves the sample record from May to June through a store journaling in `state`, then puts
    /// back what a kill before the second save would have left: May's document as it was, the image
    /// still in May's folder (and, unless `reachedJune`, June's document as it was), and the journal line.
    static func cutShortMove(store path: String, state: String, reachedJune: Bool) throws {
        let mayBefore = try Fixtures.contents(ofFileAtPath: path + "/" + may.documentPath)
        let juneBefore = try? Fixtures.contents(ofFileAtPath: path + "/" + june.documentPath)
        let store = try Store(folder: FilePath(path), timeZone: .utc, stateDirectory: FilePath(state))
        let name = try #require(try store.recordFiles(in: may).first { $0.id == id }?.name)
        let text = String(decoding: try #require(try store.recordFile(named: name, in: may)).contents, as: UTF8.self)
        let moved = text.replacingOccurrences(of: "2024-05-15T06:53:35.681Z", with: "2024-06-02T08:00:00Z")
            .replacingOccurrences(of: "2024-05-15T07:30:32.206Z", with: "2024-06-02T09:00:00Z")
        #expect(try store.writeRecordFile(Array(moved.utf8), named: name, in: may).month == june)
        let journal = try #require(store.moves.journal)
        #expect(journal.pending().isEmpty, "a finished move is not left in the journal")
        #expect(!FileManager.default.fileExists(atPath: journal.path))

        try Data(mayBefore).write(to: URL(fileURLWithPath: path + "/" + may.documentPath))
        try FileManager.default.moveItem(atPath: path + "/records/2024/06/" + image, toPath: path + "/records/2024/05/" + image)
        if !reachedJune {
            if let juneBefore {
                try Data(juneBefore).write(to: URL(fileURLWithPath: path + "/" + june.documentPath))
            } else {
                try FileManager.default.removeItem(atPath: path + "/" + june.documentPath)
            }
        }
        try journal.begin(MoveJournal.Move(id: id, source: may, destination: june))
    }

    static func months(holding id: String, in store: Store) throws -> [Month] {
        try store.months().filter { month in try store.recordFiles(in: month).contains { $0.id == id } }
    }

    @Test("a move cut short after the new month was saved is finished: the record and its image are in June only")
    func finishedAfterTheNewMonthWasSaved() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let state = folder + "/state"
            try Self.cutShortMove(store: path, state: state, reachedJune: true)
            #expect(try [Self.may, Self.june].allSatisfy { month in
                try Document.load(Fixtures.contents(ofFileAtPath: path + "/" + month.documentPath)).value(of: .root, key: Self.id) != nil
            }, "the simulated kill left the record in both month documents")
            // Shown once meanwhile, at its new place: the June copy changed last.
            #expect(try Self.months(holding: Self.id, in: Store(folder: FilePath(path), timeZone: .utc)) == [Self.june])

            let store = try Store(folder: FilePath(path), timeZone: .utc, stateDirectory: FilePath(state))
            #expect(try store.finishInterruptedMoves() == [Self.id])
            #expect(try Self.months(holding: Self.id, in: store) == [Self.june])
            #expect(FileManager.default.fileExists(atPath: path + "/records/2024/06/" + Self.image))
            #expect(!FileManager.default.fileExists(atPath: path + "/records/2024/05/" + Self.image))
            let mayOnDisk = try Document.load(Fixtures.contents(ofFileAtPath: path + "/" + Self.may.documentPath))
            #expect(mayOnDisk.value(of: .root, key: Self.id) == nil)
            #expect(try #require(store.moves.journal).pending().isEmpty)
            // Another store opened later finds nothing left to do.
            #expect(try Store(folder: FilePath(path), timeZone: .utc, stateDirectory: FilePath(state)).finishInterruptedMoves().isEmpty)
        }
    }

    @Test("a move cut short before the new month was saved leaves the record in its old month")
    func keptWhenTheNewMonthWasNotSaved() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let state = folder + "/state"
            try Self.cutShortMove(store: path, state: state, reachedJune: false)

            let store = try Store(folder: FilePath(path), timeZone: .utc, stateDirectory: FilePath(state))
            #expect(try store.finishInterruptedMoves().isEmpty)
            #expect(try Self.months(holding: Self.id, in: store) == [Self.may])
            #expect(FileManager.default.fileExists(atPath: path + "/records/2024/05/" + Self.image))
            #expect(try #require(store.moves.journal).pending().isEmpty)
        }
    }

    @Test("two stores on two folders keep separate journals, outside the backing folders")
    func journalPerStore() throws {
        try withTemporaryDirectory { folder in
            let first = try StoreFixture.copyOfAppStore(into: folder, name: "first")
            let second = try StoreFixture.copyOfAppStore(into: folder, name: "second")
            let state = folder + "/state"
            let journals = try [first, second].map { try #require(try Store(folder: FilePath($0), timeZone: .utc, stateDirectory: FilePath(state)).moves.journal) }
            #expect(journals[0].path != journals[1].path)
            #expect(journals.allSatisfy { $0.path.hasPrefix(state + "/") })
        }
    }
}
