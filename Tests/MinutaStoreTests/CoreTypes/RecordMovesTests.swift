import Foundation
@testable import MinutaStore
import Testing
import TestSupport

/// `RecordMoves` over a `MonthReplicas` of its own (no `Store` around it): images follow a moved record,
/// and a store without a journal has no interrupted moves to finish.
struct RecordMovesTests {
    static let january = Month(year: 2024, month: 1)!
    static let february = Month(year: 2024, month: 2)!

    static func moves(_ setup: MonthReplicasTests.Setup, journal: MoveJournal? = nil) -> RecordMoves {
        let events = StoreEvents(log: { _ in })
        return RecordMoves(replicas: setup.replicas, documentFiles: setup.replicas.documentFiles, events: events, journal: journal,
                           memory: nil, log: { _ in })
    }

    @Test("images move to the new month's folder; missing ones and names that are not plain file names are skipped")
    func imagesFollow() throws {
        try withTemporaryDirectory { folder in
            let setup = try MonthReplicasTests.Setup(in: folder)
            let manager = FileManager.default
            try manager.createDirectory(atPath: setup.path + "/records/2024/01", withIntermediateDirectories: true)
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: setup.path + "/records/2024/01/a_1.png"))
            try Data([4]).write(to: URL(fileURLWithPath: setup.path + "/records/2024/secret.png"))
            try Self.moves(setup).moveImages(["a_1.png", "gone.png", "../secret.png"], from: Self.january, to: Self.february)
            #expect(manager.fileExists(atPath: setup.path + "/records/2024/02/a_1.png"))
            #expect(!manager.fileExists(atPath: setup.path + "/records/2024/01/a_1.png"))
            #expect(!manager.fileExists(atPath: setup.path + "/records/2024/02/gone.png"))
            #expect(manager.fileExists(atPath: setup.path + "/records/2024/secret.png"))
        }
    }

    @Test("without a journal there is nothing to finish; with one, a move whose record never arrived is dropped untouched")
    func finishing() throws {
        try withTemporaryDirectory { folder in
            let setup = try MonthReplicasTests.Setup(in: folder)
            #expect(try Self.moves(setup).finishInterruptedMoves().isEmpty)
            try setup.writeMonth([1])
            let journal = try MoveJournal(stateDirectory: folder + "/state", storePath: setup.path)
            let move = MoveJournal.Move(id: MonthReplicasTests.id(1), source: Self.january, destination: Self.february)
            try journal.begin(move)
            // The record never reached February: January keeps it, and the journal forgets the move.
            #expect(try Self.moves(setup, journal: journal).finishInterruptedMoves().isEmpty)
            #expect(journal.pending().isEmpty)
            #expect(try setup.replicas.recordFiles(in: Self.january).map(\.id) == [MonthReplicasTests.id(1)])
        }
    }
}
