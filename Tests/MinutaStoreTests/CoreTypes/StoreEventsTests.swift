@testable import MinutaStore
import Synchronization
import Testing

/// `StoreEvents` alone: the lines of `.minutafs/errors` and the log, the bytes of refused writes, and
/// the counts of `.minutafs/status`, with their limits.
struct StoreEventsTests {
    /// Events whose log lines are collected.
    final class Logged: Sendable {
        final class Lines: Sendable {
            let list = Mutex<[String]>([])
        }
        let lines: Lines
        let events: StoreEvents

        init() {
            let lines = Lines()
            self.lines = lines
            events = StoreEvents { line in lines.list.withLock { $0.append(line) } }
        }

        var logged: [String] { lines.list.withLock { $0 } }
    }

    @Test("a new store has noted nothing")
    func emptyRecord() {
        let record = StoreEvents(log: { _ in }).snapshot
        #expect(record.lines.isEmpty && record.rejectedFiles.isEmpty && record.conflictLines.isEmpty)
        #expect(record.rejectedWriteCount == 0 && record.savedDocumentCount == 0 && record.mergedCopyCount == 0)
        #expect(record.lastMerge == nil && !record.backingFolderGone && record.failedDeferredWork == 0)
    }

    @Test("a line noted goes to errors and to the log, in order; one noted as not logged only to errors")
    func noteAndLog() {
        let logged = Logged()
        logged.events.note("first")
        logged.events.note("quiet", logged: false)
        logged.events.note("second")
        #expect(logged.events.snapshot.lines == ["first", "quiet", "second"])
        #expect(logged.logged == ["first", "second"])
    }

    @Test("errors keep the last 1000 lines")
    func linesAreBounded() {
        let events = StoreEvents(log: { _ in })
        for number in 1...1005 { events.note("line \(number)", logged: false) }
        let lines = events.snapshot.lines
        #expect(lines.count == 1000)
        #expect(lines.first == "line 6")
        #expect(lines.last == "line 1005")
    }

    @Test("a line repeated right after itself is noted once; after another line it is noted again")
    func noteOnce() {
        let logged = Logged()
        logged.events.noteOnce("the folder cannot be listed")
        logged.events.noteOnce("the folder cannot be listed")
        logged.events.note("something else")
        logged.events.noteOnce("the folder cannot be listed")
        #expect(logged.events.snapshot.lines == ["the folder cannot be listed", "something else", "the folder cannot be listed"])
        #expect(logged.logged.count == 3)
    }

    @Test("a refused write is counted, its reason is an error line, and the log says nothing was changed")
    func rejection() {
        let logged = Logged()
        let error = StoreError.notFound("records/2024/01/x.json")
        logged.events.noteRejection(error)
        logged.events.noteRejection(error)
        let record = logged.events.snapshot
        #expect(record.rejectedWriteCount == 2)
        #expect(record.lines == [error.description, error.description])
        #expect(logged.logged.first?.contains(error.description) == true)
        #expect(logged.logged.first?.contains("nothing was changed") == true)
    }

    @Test("refused bytes are kept under the time and the flattened path, and a second one of the same name gets a number")
    func keepRejectedNames() {
        let events = StoreEvents(log: { _ in })
        events.keepRejected([1, 2], file: "records/2024/01/a.json", stamp: "2024-01-01T00-00-00")
        events.keepRejected([3], file: "records/2024/01/a.json", stamp: "2024-01-01T00-00-00")
        events.keepRejected([4], file: "records/2024/01/a.json", stamp: "2024-01-01T00-00-00")
        let files = events.snapshot.rejectedFiles
        #expect(files.map(\.name) == [
            "2024-01-01T00-00-00_records_2024_01_a.json", "2024-01-01T00-00-00_2_records_2024_01_a.json",
            "2024-01-01T00-00-00_3_records_2024_01_a.json",
        ])
        #expect(files.map(\.bytes) == [[1, 2], [3], [4]])
    }

    @Test("refused bytes keep the newest 200 files")
    func keepRejectedCount() {
        let events = StoreEvents(log: { _ in })
        for number in 0..<205 { events.keepRejected([UInt8(number % 256)], file: "tags.json", stamp: "s\(number)") }
        let files = events.snapshot.rejectedFiles
        #expect(files.count == 200)
        #expect(files.first?.name == "s5_tags.json")
        #expect(files.last?.name == "s204_tags.json")
    }

    @Test("refused bytes keep at most 64 MiB, dropping the oldest")
    func keepRejectedSize() {
        let events = StoreEvents(log: { _ in })
        let big = [UInt8](repeating: 7, count: 30 << 20)
        events.keepRejected(big, file: "a.json", stamp: "1")
        events.keepRejected(big, file: "b.json", stamp: "2")
        events.keepRejected(big, file: "c.json", stamp: "3")
        let files = events.snapshot.rejectedFiles
        #expect(files.map(\.name) == ["2_b.json", "3_c.json"])
        #expect(files.reduce(0) { $0 + $1.bytes.count } <= 64 << 20)
    }

    @Test("conflict lines are appended and logged without their newline; none changes nothing")
    func conflicts() {
        let logged = Logged()
        logged.events.noteConflicts([])
        #expect(logged.logged.isEmpty)
        logged.events.noteConflicts(["a lost edit\n", "another"])
        logged.events.noteConflicts(["third\n"])
        #expect(logged.events.snapshot.conflictLines == ["a lost edit\n", "another", "third\n"])
        #expect(logged.logged == ["conflict: a lost edit", "conflict: another", "conflict: third"])
        #expect(logged.events.snapshot.lines.isEmpty, "conflicts are not errors")
    }

    @Test("the status counts count, and the last merge and failure are remembered")
    func counts() {
        let events = StoreEvents(log: { _ in })
        events.countSavedDocument()
        events.countSavedDocument()
        events.countMergedCopy("merged 01 (conflicted copy).automerge")
        events.countMergedCopy("merged tags (conflicted copy).automerge")
        let record = events.snapshot
        #expect(record.savedDocumentCount == 2)
        #expect(record.mergedCopyCount == 2)
        #expect(record.lastMerge == "merged tags (conflicted copy).automerge")
    }

    @Test("synchronization passes are counted by their own counter, with the last failed merge")
    func passes() {
        let passes = SynchronizationPasses()
        #expect(passes.snapshot.passes == 0 && passes.snapshot.failedMerges == 0)
        passes.countPass(mergeFailure: nil)
        passes.countPass(mergeFailure: "02 (conflicted copy).automerge: cannot be loaded")
        passes.countPass(mergeFailure: nil)
        #expect(passes.snapshot.passes == 3)
        #expect(passes.snapshot.failedMerges == 1)
        #expect(passes.snapshot.lastFailure == "02 (conflicted copy).automerge: cannot be loaded")
    }

    @Test("the backing folder's loss is noted the first time only")
    func backingFolderGoneOnce() {
        let logged = Logged()
        logged.events.noteBackingFolderGone("the store folder was moved")
        logged.events.noteBackingFolderGone("the store folder was moved")
        #expect(logged.events.snapshot.backingFolderGone)
        #expect(logged.events.snapshot.lines == ["the store folder was moved"])
        #expect(logged.logged == ["the store folder was moved"])
    }

    @Test("each deferred failure is counted and noted")
    func deferredFailures() {
        let events = StoreEvents(log: { _ in })
        events.noteDeferredFailure("removing a.json failed")
        events.noteDeferredFailure("removing a.json failed")
        #expect(events.snapshot.failedDeferredWork == 2)
        #expect(events.snapshot.lines == ["removing a.json failed", "removing a.json failed"])
    }

    @Test("counts from many threads add up")
    func concurrentCounts() async {
        let events = StoreEvents(log: { _ in })
        await withTaskGroup(of: Void.self) { group in
            for number in 0..<200 {
                group.addTask {
                    events.countSavedDocument()
                    events.note("line \(number)", logged: false)
                }
            }
        }
        #expect(events.snapshot.savedDocumentCount == 200)
        #expect(Set(events.snapshot.lines).count == 200)
    }
}
