import AutomergeKit
import Foundation
import Synchronization
@testable import MinutaStore
import Testing
import TestSupport

/// `MonthReplicas` alone, over a folder of its own (no `Store` around it): it loads a month from its
/// file on first use, renders its view once per version of the document, serves the new records after
/// a change checked out and in, puts a month back as last saved when a change fails, and publishes
/// every view it renders to readers that take no lock.
struct MonthReplicasTests {
    static let january = Month(year: 2024, month: 1)!
    static let clock = 1_704_067_200

    struct Setup {
        let path: String
        let replicas: MonthReplicas

        init(in folder: String, renderObserver: (@Sendable (Month) -> Void)? = nil) throws {
            path = folder + "/store"
            try FileManager.default.createDirectory(atPath: path + "/records/2024", withIntermediateDirectories: true)
            let events = StoreEvents(log: { _ in })
            let unreadable = UnreadableFiles()
            let actor = ActorID.random()
            let backingFolder = BackingFolder(path: path, events: events)
            let files = DocumentFiles(folder: backingFolder, actor: actor, unreadable: unreadable, events: events, clock: { MonthReplicasTests.clock })
            let reader = WaitingCopyReader(path: path, actor: actor, isMerging: false)
            let listing = MonthListing(backingFolder: backingFolder, deletedMonths: DeletedDocuments(events: events), waitingCopyReader: reader)
            replicas = MonthReplicas(path: path, actor: actor, timeZone: .utc, clock: { MonthReplicasTests.clock }, documentFiles: files,
                                     unreadable: unreadable, waitingCopyReader: reader, listing: listing, viewCache: nil, indexesRecordHolders: true,
                                     renderObserver: renderObserver)
        }

        /// Writes a month document holding records `numbers` (starting on 2024-01-15 at that hour).
        func writeMonth(_ numbers: [Int], as month: Month = MonthReplicasTests.january) throws {
            var document = Document()
            for number in numbers { try MonthReplicasTests.add(number, to: &document) }
            try Data(document.save()).write(to: URL(fileURLWithPath: path + "/" + month.documentPath))
        }
    }

    static func id(_ number: Int) -> String { "0A000000-0000-4000-8000-\(String(format: "%012d", number))" }

    static func add(_ number: Int, to document: inout Document) throws {
        let record = try document.putObject(.map, forKey: id(number))
        try document.put(.timestamp(1_705_276_800_000 + Int64(number) * 3_600_000), forKey: "startTime", in: record)
        try document.put(.string("record \(number)"), forKey: "comment", in: record)
    }

    @Test("a month is loaded from its file on first read and its view published for readers that take no lock")
    func firstReadLoadsAndPublishes() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            try setup.writeMonth([1, 2])
            #expect(setup.replicas.publishedViews.view(of: Self.january) == nil)
            let files = try setup.replicas.recordFiles(in: Self.january)
            #expect(files.map(\.id) == [Self.id(1), Self.id(2)])
            #expect(setup.replicas.publishedViews.view(of: Self.january)?.files.map(\.id) == [Self.id(1), Self.id(2)])
            #expect(try setup.replicas.recordFile(named: files[1].name, in: Self.january)?.id == Self.id(2))
            #expect(try setup.replicas.recordFile(named: "nothing.json", in: Self.january) == nil)
        }
    }

    @Test("a month with no document file has no records and no document")
    func absentMonth() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            #expect(try setup.replicas.recordFiles(in: Self.january).isEmpty)
            #expect(try setup.replicas.heldDocumentAndFile(of: Self.january) == nil)
        }
    }

    @Test("a change checked out and in is what the next read shows: no view of an older version is served")
    func changeIsServed() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            try setup.writeMonth([1])
            #expect(try setup.replicas.recordFiles(in: Self.january).count == 1)
            let changed = try setup.replicas.withCheckedOut(Self.january) { (loaded: inout LoadedDocument) throws(StoreError) -> Bool in
                do { try Self.add(2, to: &loaded.document) } catch { throw .notFound("add") }
                loaded.invalidateView(changedRecord: Self.id(2))
                return try setup.replicas.documentFiles.save(&loaded, to: Self.january.documentPath)
            }
            #expect(changed == true)
            #expect(try setup.replicas.recordFiles(in: Self.january).map(\.id) == [Self.id(1), Self.id(2)])
            #expect(setup.replicas.publishedViews.view(of: Self.january)?.files.count == 2)
            // And on disk: a new replica over the same folder reads both.
            let fresh = try Setup(in: folder)
            #expect(try fresh.replicas.recordFiles(in: Self.january).count == 2)
        }
    }

    @Test("a change that fails leaves the month as it was last saved")
    func failedChangeIsUndone() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            try setup.writeMonth([1])
            _ = try setup.replicas.recordFiles(in: Self.january)
            #expect(throws: StoreError.self) {
                _ = try setup.replicas.withCheckedOut(Self.january) { (loaded: inout LoadedDocument) throws(StoreError) -> Bool in
                    do { try Self.add(2, to: &loaded.document) } catch { throw .notFound("add") }
                    loaded.invalidateView(changedRecord: Self.id(2))
                    throw .notFound("the change failed")
                }
            }
            #expect(try setup.replicas.recordFiles(in: Self.january).map(\.id) == [Self.id(1)])
            #expect(try setup.replicas.heldDocumentAndFile(of: Self.january)?.document.keys(of: .root) == [Self.id(1)])
        }
    }

    @Test("the tags replica it holds renders tags.json, an empty list without a file")
    func tagsFile() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            let parsed = try JSONParser.parse(try setup.replicas.tags.file())
            #expect(parsed["tags"] == .array([]))
        }
    }

    @Test("what is held is told without the state: held months with their files, whether a document is held, and forgetting one")
    func heldDocuments() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            try setup.writeMonth([1])
            #expect(setup.replicas.heldMonthFiles().isEmpty)
            #expect(!setup.replicas.holds(Self.january.documentPath))
            _ = try setup.replicas.recordFiles(in: Self.january)
            #expect(setup.replicas.heldMonthFiles().map(\.month) == [Self.january])
            #expect(setup.replicas.heldMonthFiles().first?.identity != nil)
            #expect(setup.replicas.holds(Self.january.documentPath))
            #expect(!setup.replicas.holds("tags.automerge"))
            #expect(!setup.replicas.isParkedWithoutConflicts(Self.january))
            setup.replicas.forget(Self.january)
            #expect(!setup.replicas.holds(Self.january.documentPath))
            #expect(try setup.replicas.recordFiles(in: Self.january).count == 1)
        }
    }

    /// Holds the first render of January without the state (`renderObserver`) until released, says when
    /// it started, and counts January's renders.
    final class HeldRender: Sendable {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let januaryRenders = Mutex(0)

        func observe(_ month: Month) {
            guard month == MonthReplicasTests.january else { return }
            guard januaryRenders.withLock({ count in
                count += 1
                return count == 1
            }) else { return }
            started.signal()
            release.wait()
        }
    }

    /// A read of a month's record files on a thread of its own: what it returned once `done` is signalled.
    final class BackgroundRead: Sendable {
        let files = Mutex<[RecordFile]?>(nil)
        let done = DispatchSemaphore(value: 0)

        init(of month: Month, in replicas: MonthReplicas) {
            Thread.detachNewThread { [self] in
                files.withLock { $0 = try? replicas.recordFiles(in: month) }
                done.signal()
            }
        }

        /// The ids read, once the read ended within 30 seconds; nil when it did not.
        func ids() -> [String]? {
            guard done.wait(timeout: .now() + 30) == .success else { return nil }
            return files.withLock { $0?.map(\.id) }
        }
    }

    @Test("a month's view is rendered without the state: the first read of another month is answered while it renders")
    func renderHoldsUpNoOtherMonth() throws {
        try withTemporaryDirectory { folder in
            let held = HeldRender()
            let setup = try Setup(in: folder, renderObserver: { held.observe($0) })
            try setup.writeMonth([1, 2])
            try setup.writeMonth([3], as: Month(year: 2024, month: 2)!)
            let january = BackgroundRead(of: Self.january, in: setup.replicas)
            #expect(held.started.wait(timeout: .now() + 30) == .success, "January was not rendered without the state")
            let february = BackgroundRead(of: Month(year: 2024, month: 2)!, in: setup.replicas)
            let answered = february.done.wait(timeout: .now() + 30)
            held.release.signal()
            #expect(answered == .success, "a read of February waited for January's render")
            #expect(february.files.withLock { $0?.map(\.id) } == [Self.id(3)])
            #expect(january.ids() == [Self.id(1), Self.id(2)])
        }
    }

    @Test("a view rendered without the state is not kept when a change checked the month out and in meanwhile")
    func staleRenderIsNotKept() throws {
        try withTemporaryDirectory { folder in
            let held = HeldRender()
            let setup = try Setup(in: folder, renderObserver: { held.observe($0) })
            try setup.writeMonth([1, 2])
            let read = BackgroundRead(of: Self.january, in: setup.replicas)
            #expect(held.started.wait(timeout: .now() + 30) == .success)
            // The render has its copy of the document with records 1 and 2; a change adds 3.
            let changed = try setup.replicas.withCheckedOut(Self.january) { (loaded: inout LoadedDocument) throws(StoreError) -> Bool in
                do { try Self.add(3, to: &loaded.document) } catch { throw .notFound("add") }
                loaded.invalidateView(changedRecord: Self.id(3))
                return try setup.replicas.documentFiles.save(&loaded, to: Self.january.documentPath)
            }
            held.release.signal()
            #expect(changed == true)
            #expect(read.ids() == [Self.id(1), Self.id(2), Self.id(3)], "the read was answered from the render of the older version")
            #expect(held.januaryRenders.withLock { $0 } == 2, "the read did not render the new version without the state")
            #expect(try setup.replicas.recordFiles(in: Self.january).map(\.id) == [Self.id(1), Self.id(2), Self.id(3)])
        }
    }

    @Test("a view rendered without the state is not kept when a month holding another copy of its records changed meanwhile")
    func renderNotKeptWhenOtherHolderChanged() throws {
        try withTemporaryDirectory { folder in
            let held = HeldRender()
            let setup = try Setup(in: folder, renderObserver: { held.observe($0) })
            let february = Month(year: 2024, month: 2)!
            try setup.writeMonth([1, 2])
            try Self.writeMovedCopy(of: 1, to: february, in: setup)
            #expect(setup.replicas.indexRecordHolders().contains(Self.january.documentPath))
            // February is held decoded and shows record 1: January's render looks into it and hides its copy.
            #expect(try setup.replicas.recordFiles(in: february).map(\.id) == [Self.id(1)])
            let read = BackgroundRead(of: Self.january, in: setup.replicas)
            #expect(held.started.wait(timeout: .now() + 30) == .success, "January was not rendered without the state")
            // Meanwhile February's copy is deleted (a device removed it there): January's is the only one.
            let changed = try setup.replicas.withCheckedOut(february) { (loaded: inout LoadedDocument) throws(StoreError) -> Bool in
                do { try loaded.document.delete(forKey: Self.id(1)) } catch { throw .notFound("delete") }
                loaded.invalidateView(changedRecord: Self.id(1))
                return try setup.replicas.documentFiles.save(&loaded, to: february.documentPath)
            }
            held.release.signal()
            #expect(changed == true)
            #expect(read.ids() == [Self.id(1), Self.id(2)], "January was answered from a render that looked into February's older version")
            #expect(held.januaryRenders.withLock { $0 } == 2, "January was not rendered again without the state")
            #expect(try setup.replicas.recordFiles(in: february).isEmpty)
        }
    }

    /// Writes `month`'s document holding a copy of record `number` with a start in that month, committed
    /// later than January's: another device's move of it, of which January's removal has not arrived.
    static func writeMovedCopy(of number: Int, to month: Month, in setup: Setup) throws {
        var moved = Document()
        let record = try moved.putObject(.map, forKey: id(number))
        try moved.put(.timestamp(1_707_955_200_000), forKey: "startTime", in: record)
        try moved.put(.string("moved"), forKey: "comment", in: record)
        moved.commit(time: 4_000_000_000)
        try Data(moved.save()).write(to: URL(fileURLWithPath: setup.path + "/" + month.documentPath))
    }

    @Test("a change's view is rendered before its check-in, with the change time the check-in notes, and kept with the document")
    func checkedOutRenderIsKept() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            try setup.writeMonth([1])
            _ = try setup.replicas.recordFiles(in: Self.january)
            let changedAt = Self.clock + 300
            let changed = try setup.replicas.withCheckedOut(Self.january, change: { (loaded: inout LoadedDocument) throws(StoreError) -> Bool in
                do { try Self.add(2, to: &loaded.document) } catch { throw .notFound("add") }
                loaded.invalidateView(changedRecord: Self.id(2))
                return try setup.replicas.documentFiles.save(&loaded, to: Self.january.documentPath)
            }, rendersNoting: { _ in [(RecordID(Self.id(2)), changedAt)] }, checkIn: { state, changed in
                // What a record save's check-in does: note the change, then look at the view.
                #expect(state.months[Self.january]?.view != nil, "the check-in found no view rendered before it")
                state.recentChanges.noteChange(of: RecordID(Self.id(2)), at: changedAt)
                return changed
            })
            #expect(changed == true)
            let files = try setup.replicas.recordFiles(in: Self.january)
            #expect(files.map(\.id) == [Self.id(1), Self.id(2)])
            #expect(files.map(\.modificationTime) == [setup.replicas.withState { $0.months[Self.january]?.identity?.modificationSeconds }, changedAt])
        }
    }

    @Test("a change's view rendered before its check-in is not kept when change times were noted meanwhile")
    func checkedOutRenderNotKeptWhenTimesMoved() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            try setup.writeMonth([1])
            _ = try setup.replicas.recordFiles(in: Self.january)
            _ = try setup.replicas.withCheckedOut(Self.january) { (loaded: inout LoadedDocument) throws(StoreError) -> Bool in
                do { try Self.add(2, to: &loaded.document) } catch { throw .notFound("add") }
                loaded.invalidateView(changedRecord: Self.id(2))
                let rendered = setup.replicas.renderCheckedOut(loaded, of: Self.january, noting: [(RecordID(Self.id(2)), Self.clock)])
                #expect(rendered != nil)
                let candidate = loaded
                let kept = setup.replicas.withState { state -> Bool in
                    state.recentChanges.noteChange(of: RecordID(Self.id(1)), at: Self.clock + 1)  // another save noted a time
                    var checkedIn = candidate
                    setup.replicas.keepIfCurrent(rendered, as: &checkedIn, of: Self.january, in: &state)
                    return checkedIn.view != nil
                }
                #expect(!kept, "a view rendered from change times that moved on was kept")
                return true
            }
        }
    }

    @Test("while a mount builds the holder index, a first read renders without the state, and the finished index hides a copy held twice")
    func renderWhileIndexIsBuilt() throws {
        try withTemporaryDirectory { folder in
            let rendered = Mutex<[Month]>([])
            let setup = try Setup(in: folder, renderObserver: { month in rendered.withLock { $0.append(month) } })
            let february = Month(year: 2024, month: 2)!
            try setup.writeMonth([1, 2])
            // February's document holds record 1 too, moved to a start in February later (another
            // device's move, half delivered): once the index knows, February shows it, not January.
            try Self.writeMovedCopy(of: 1, to: february, in: setup)

            setup.replicas.willIndexRecordHolders()
            #expect(try setup.replicas.recordFiles(in: Self.january).map(\.id) == [Self.id(1), Self.id(2)], "without the index, January shows its copy")
            #expect(rendered.withLock { $0 } == [Self.january], "the first read rendered under the state while the index was being built")
            #expect(setup.replicas.indexRecordHolders().contains(Self.january.documentPath))
            #expect(try setup.replicas.recordFiles(in: Self.january).map(\.id) == [Self.id(2)], "the index did not drop the view showing a copy held twice")
            #expect(try setup.replicas.recordFiles(in: february).map(\.id) == [Self.id(1)])
        }
    }
}
