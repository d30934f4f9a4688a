import AutomergeKit
import Foundation
@testable import MinutaStore
import Testing
import TestSupport

/// `LeftoverFiles` over a `MonthReplicas` of its own (no `Store` around it): a killed save's temporary
/// document is merged into its document before it is removed, one that does not load is quarantined,
/// another file's leftover is removed, and another machine's recent one is left alone.
struct LeftoverFilesTests {
    static let january = Month(year: 2024, month: 1)!

    static func leftovers(_ setup: MonthReplicasTests.Setup) -> LeftoverFiles {
        let events = StoreEvents(log: { _ in })
        return LeftoverFiles(replicas: setup.replicas, documentFiles: setup.replicas.documentFiles,
                             backingFolder: BackingFolder(path: setup.path, events: events), events: events)
    }

    @Test("a leftover document is merged in, a broken one quarantined, another leftover removed, a recent foreign one kept")
    func sweep() throws {
        try withTemporaryDirectory { folder in
            let setup = try MonthReplicasTests.Setup(in: folder)
            try setup.writeMonth([1])
            let manager = FileManager.default
            // A killed save of January holding record 2 as well.
            var killed = try Document.load(try Fixtures.contents(ofFileAtPath: setup.path + "/" + Self.january.documentPath))
            killed.setActor(.random())
            try MonthReplicasTests.add(2, to: &killed)
            let document = "records/2024/" + TemporaryFileName.make(for: "01.automerge", random: "a1")
            try Data(killed.save()).write(to: URL(fileURLWithPath: setup.path + "/" + document))
            let broken = "records/2024/" + TemporaryFileName.make(for: "02.automerge", random: "b2")
            try Data("not a document".utf8).write(to: URL(fileURLWithPath: setup.path + "/" + broken))
            let image = "records/2024/" + TemporaryFileName.make(for: "a.png", random: "c3")
            try Data([1]).write(to: URL(fileURLWithPath: setup.path + "/" + image))
            let foreign = "records/2024/.b.png.minutafs-c4.tmp"  // an earlier version's: no machine tag, just written
            try Data([1]).write(to: URL(fileURLWithPath: setup.path + "/" + foreign))

            var lanes: [String] = []
            let removed = Self.leftovers(setup).removeStale(olderThan: 600) { document, work in
                lanes.append(document)
                return work()
            }
            #expect(Set(removed) == [document, broken, image])
            #expect(Set(lanes) == [Self.january.documentPath, "records/2024/02.automerge"])
            #expect(try setup.replicas.recordFiles(in: Self.january).map(\.id) == [MonthReplicasTests.id(1), MonthReplicasTests.id(2)])
            #expect(manager.fileExists(atPath: setup.path + "/" + foreign))
            #expect(try manager.contentsOfDirectory(atPath: setup.path + "/.minutafs-quarantine").count == 1)
            #expect(!manager.fileExists(atPath: setup.path + "/" + broken))
        }
    }
}
