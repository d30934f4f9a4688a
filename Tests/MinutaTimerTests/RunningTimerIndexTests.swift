import Foundation
import MinutaStore
import MinutaTimer
import Testing
import TestSupport

/// The running-timer index reads again only the months whose document or waiting copies changed, and
/// survives a save and a load (SPEC 10: the cost of `now` does not grow with the store's age).
@Suite struct RunningTimerIndexTests {
    static func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    }

    @Test("a second look reads nothing; a changed document, a new conflict copy and a removed month are looked at again")
    func readsOnlyChangedMonths() throws {
        try withTemporaryDirectory { store in
            for month in ["2016/01", "2016/02", "2025/11"] {
                try Self.write("doc " + month, store + "/records/" + month.prefix(4) + "/" + month.suffix(2) + ".automerge")
            }
            var index = RunningTimerIndex()
            var read: [String] = []
            let look = { (month: Month) throws(TimerError) -> [String] in
                read.append(month.yearSlashMonth)
                return month.yearSlashMonth == "2016/01" ? ["2016-01-02_090000.json"] : []
            }
            #expect(try index.refresh(storePath: store, runningTimers: look))
            #expect(read.sorted() == ["2016/01", "2016/02", "2025/11"])
            #expect(index.runningTimerFiles == [Month(year: 2016, month: 1)!: ["2016-01-02_090000.json"]])
            read = []
            #expect(try !index.refresh(storePath: store, runningTimers: look))
            #expect(read.isEmpty)
            try Self.write("doc 2025/11, changed", store + "/records/2025/11.automerge")
            try Self.write("phone", store + "/records/2016/02 (Phone's conflicted copy 2026-11-26).automerge")
            try FileManager.default.removeItem(atPath: store + "/records/2016/01.automerge")
            try index.refresh(storePath: store, runningTimers: look)
            #expect(read.sorted() == ["2016/02", "2025/11"])
            #expect(index.runningTimerFiles.isEmpty, "the month whose document went is gone from the index")
            #expect(index.hasWaitingCopies(Month(year: 2016, month: 2)!) && !index.hasWaitingCopies(Month(year: 2025, month: 11)!))
            read = []
            try index.refresh(storePath: store, everyMonth: true, runningTimers: look)
            #expect(read.sorted() == ["2016/02", "2025/11"])
        }
    }

    @Test("a month that cannot be read now keeps what was last read of it and is read again next time; one never read fails the look")
    func unreadableMonth() throws {
        try withTemporaryDirectory { store in
            for month in ["2024/03", "2024/11"] {
                try Self.write("doc " + month, store + "/records/" + month.prefix(4) + "/" + month.suffix(2) + ".automerge")
            }
            var unreadable: Set<String> = []
            var read: [String] = []
            let look = { (month: Month) throws(TimerError) -> [String] in
                read.append(month.yearSlashMonth)
                if unreadable.contains(month.yearSlashMonth) { throw .storeFailed(file: month.documentPath, reason: "the file is empty") }
                return month.yearSlashMonth == "2024/03" ? ["2024-03-04_080000.json"] : []
            }
            var index = RunningTimerIndex()
            try index.refresh(storePath: store, runningTimers: look)
            // March is being delivered again by a sync tool: what was read of it stays.
            unreadable = ["2024/03"]
            try Self.write("doc 2024/03, half", store + "/records/2024/03.automerge")
            try index.refresh(storePath: store, runningTimers: look)
            #expect(index.runningTimerFiles == [Month(year: 2024, month: 3)!: ["2024-03-04_080000.json"]])
            // Read again at the next look, and taken once it reads.
            read = []
            unreadable = []
            try index.refresh(storePath: store, runningTimers: look)
            #expect(read == ["2024/03"])
            // A month never read, unreadable: nothing can be said of it.
            try Self.write("doc 2016/01", store + "/records/2016/01.automerge")
            unreadable = ["2016/01"]
            #expect(throws: TimerError.self) { try index.refresh(storePath: store, runningTimers: look) }
        }
    }

    @Test("saved and loaded, the index is the same; a damaged or missing file loads as an empty index")
    func saveAndLoad() throws {
        try withTemporaryDirectory { folder in
            try Self.write("doc", folder + "/store/records/2024/03.automerge")
            var index = RunningTimerIndex()
            try index.refresh(storePath: folder + "/store") { (_: Month) throws(TimerError) -> [String] in ["2024-03-04_080000.json"] }
            let path = RunningTimerIndex.path(stateFolder: folder + "/state", storePath: folder + "/store")
            index.save(to: path)
            #expect(RunningTimerIndex.load(from: path) == index)
            #expect(RunningTimerIndex.load(from: path) != RunningTimerIndex())
            try Self.write("{\"version\": 1, \"months\": {\"2024/03\": {\"files\": 7}}}", path)
            #expect(RunningTimerIndex.load(from: path) == RunningTimerIndex())
            #expect(RunningTimerIndex.load(from: folder + "/none.json") == RunningTimerIndex())
        }
    }
}
