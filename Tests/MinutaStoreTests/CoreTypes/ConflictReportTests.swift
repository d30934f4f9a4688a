import AutomergeKit
import Foundation
@testable import MinutaStore
import Testing
import TestSupport

/// `ConflictReport` over a `MonthReplicas` of its own (no `Store` around it): a field with concurrent
/// values is listed once per value, under the record's file name; a month without them adds nothing.
struct ConflictReportTests {
    static let january = Month(year: 2024, month: 1)!

    @Test("concurrent values of a record's field are listed; a document without them lists nothing")
    func concurrentValues() throws {
        try withTemporaryDirectory { folder in
            let setup = try MonthReplicasTests.Setup(in: folder)
            let events = StoreEvents(log: { _ in })
            try setup.writeMonth([1])
            #expect(try ConflictReport(replicas: setup.replicas, events: events).lines().isEmpty)

            // Two devices change the comment of record 1 at once; the merge holds both values.
            let base = try Fixtures.contents(ofFileAtPath: setup.path + "/" + Self.january.documentPath)
            var ours = try Document.load(base)
            ours.setActor(.random())
            var theirs = try Document.load(base)
            theirs.setActor(.random())
            let id = MonthReplicasTests.id(1)
            let record = try #require(RecordView.object(id, in: ours))
            let theirRecord = try #require(RecordView.object(id, in: theirs))
            try ours.put(.string("ours"), forKey: "comment", in: record)
            try theirs.put(.string("theirs"), forKey: "comment", in: theirRecord)
            _ = ours.commit(time: 1)
            _ = theirs.commit(time: 1)
            try ours.merge(theirs)
            try Data(ours.save()).write(to: URL(fileURLWithPath: setup.path + "/" + Self.january.documentPath))

            let fresh = try MonthReplicasTests.Setup(in: folder)
            let report = ConflictReport(replicas: fresh.replicas, events: events)
            let lines = try report.lines()
            #expect(lines.contains { $0.contains("comment") && $0.contains("ours") }, "\(lines)")
            #expect(lines.contains { $0.contains("comment") && $0.contains("theirs") }, "\(lines)")
            #expect(try report.lines(forRecord: id, in: Self.january).count == lines.count)
        }
    }
}
