import AutomergeKit
import FileTreeInterface
import Foundation
import MinutaStore
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// The store as the mount sees it: `StoreView` answers `FileTree` calls itself, its errors
/// carry the errno a program gets, and `StoreSynchronizer` reports what another device changed.
struct StoreSeamTests {
    static let january = Month(year: 2024, month: 1)!

    @Test("a store error becomes the errno a program can act on, and a failure that means nothing to it becomes EIO")
    func errorsCarryTheirErrno() {
        let refused = StoreError.rejected(file: "records/2024/01/x.json", line: 2, column: 3, reason: .missingField("startTime"))
        #expect(TreeError(refused, writing: true).code == .invalidArgument)
        #expect(TreeError(refused, writing: true).reason == refused.description)
        let tooLarge = StoreError.rejected(file: "tags.json", line: nil, column: nil, reason: .tooLarge(limit: 16 << 20))
        #expect(TreeError(tooLarge, writing: true).code == .fileTooLarge)
        let unloadable = StoreError.unloadableDocument(file: "records/2024/01.automerge", reason: .empty)
        #expect(TreeError(unloadable, writing: true).code == .readOnlyFileSystem)
        #expect(TreeError(unloadable, writing: false).code == .ioError)
        let full = StoreError.system(file: "records/2024/01.automerge", operation: "write", errno: .noSpace)
        #expect(TreeError(full, writing: true).code == .noSpace)
        #expect(TreeError(.system(file: "a", operation: "write", errno: .diskQuotaExceeded), writing: true).code == .diskQuotaExceeded)
        // renameat2's EINVAL (a file system without RENAME_EXCHANGE) is not "your content was refused".
        #expect(TreeError(.system(file: "a", operation: "exchange", errno: .invalidArgument), writing: true).code == .ioError)
        #expect(TreeError(.notFound("records/2024/13"), writing: false).code == .noSuchFileOrDirectory)
        #expect(TreeError(.notEmpty("records/2024"), writing: true).code == .directoryNotEmpty)
        // `catch .notFound` matches whatever the reason.
        #expect(TreeError.notFound ~= TreeError(.notFound("x"), writing: false))
    }

    @Test("a save through the tree reports the paths it changed besides its own: a record that moved month, both folders, the reports")
    func saveReportsOtherPaths() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let tree = StoreView(store: try Store(folder: FilePath(path), timeZone: .utc))
            let reported = Mutex<[String]>([])
            tree.setChangeHandler { change in reported.withLock { $0 += change.paths } }
            let file = try #require(try tree.store.recordFiles(in: Self.january).first)
            let text = String(decoding: file.contents, as: UTF8.self)
            #expect(file.name.hasPrefix("2024-01-0"), "a day every month has")
            let moved = text.replacingOccurrences(of: #": "2024-01-"#, with: #": "2024-02-"#)  // startTime and endTime
            try tree.write(Array(moved.utf8), toPath: "/records/2024/01/" + file.name)
            let paths = reported.withLock { $0 }
            #expect(!paths.contains("/records/2024/01/" + file.name), "the written path itself is the mount's to handle")
            #expect(paths.contains("/records/2024/01"))
            #expect(paths.contains("/records/2024/02"))
            #expect(paths.contains { $0.hasPrefix("/records/2024/02/") && $0.hasSuffix(".json") })
            #expect(paths.contains("/reports/2024/01.csv") && paths.contains("/reports/2024/02.csv"), "\(paths)")
        }
    }

    @Test("a save reports that it kept every name only when it did: a field edited in place keeps them; a new start, a new record or another name does not")
    func saveSaysWhetherNamesAreKept() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let tree = StoreView(store: try Store(folder: FilePath(path), timeZone: .utc))
            let reported = Mutex<[TreeChange]>([])
            tree.setChangeHandler { change in reported.withLock { $0.append(change) } }
            /// The change the mount hears of for one save of `text` at `name`; the save must report one.
            func changeOfSaving(_ text: String, as name: String) throws -> TreeChange {
                reported.withLock { $0 = [] }
                try tree.write(Array(text.utf8), toPath: "/records/2024/01/" + name)
                let changes = reported.withLock { $0 }
                #expect(changes.count == 1, "\(changes)")
                return try #require(changes.first)
            }
            /// The record file's JSON with `change` applied to its fields.
            func edited(_ file: RecordFile, _ change: (inout [String: Any]) -> Void) throws -> String {
                var fields = try #require(try JSONSerialization.jsonObject(with: Data(file.contents)) as? [String: Any])
                change(&fields)
                return String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
            }
            let file = try #require(try tree.store.recordFiles(in: Self.january).first)

            let comment = try edited(file) { $0["comment"] = "edited in place" }
            #expect(try changeOfSaving(comment, as: file.name).keepsNames, "the comment's save keeps every name")
            let current = try #require(try tree.store.recordFile(named: file.name, in: Self.january))
            #expect(String(decoding: current.contents, as: UTF8.self).contains("edited in place"))

            #expect(try !changeOfSaving(try edited(current) { $0["comment"] = "saved as tmp.json" }, as: "tmp.json").keepsNames,
                    "tmp.json is another name for the record")

            // A day later, start and end: the file is named by the new start.
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(current.contents)) as? [String: Any])
            var times: [String: String] = [:]
            for key in ["startTime", "endTime"] {
                let time = try #require(fields[key] as? String)
                let day = try #require(Int(time.dropFirst(8).prefix(2)))
                try #require(time.hasPrefix("2024-01-") && day < 28, "a day with a next one in January: \(time)")
                times[key] = "2024-01-" + (day < 9 ? "0" : "") + String(day + 1) + time.dropFirst(10)
            }
            let moved = try edited(current) { $0.merge(times) { $1 } }
            #expect(try !changeOfSaving(moved, as: file.name).keepsNames, "a new start renames the file")

            let new = try edited(current) { $0["id"] = nil }
            #expect(try !changeOfSaving(new, as: "new.json").keepsNames, "a new record is a new name")
        }
    }

    @Test("a save in place that merges another device's version of its month, found on disk as it writes, does not say it kept every name")
    func saveMergingAnotherVersionMayRename() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder, name: "A")
            let other = try StoreFixture.copyOfAppStore(into: folder, name: "B")
            let tree = StoreView(store: try Store(folder: FilePath(path), timeZone: .utc))
            let file = try #require(try tree.store.recordFiles(in: Self.january).first)
            let before = try tree.store.recordFiles(in: Self.january).map(\.name)
            // Another device adds a record to January, and its version replaces the file underneath.
            let otherStore = try Store(folder: FilePath(other), timeZone: .utc)
            let added = try otherStore.writeRecordFile(Array(#"{"startTime": "2024-01-20T08:00:00Z", "endTime": "2024-01-20T09:00:00Z", "comment": "from the phone"}"#.utf8),
                                                       named: "new.json", in: Self.january)
            #expect(!before.contains(added.fileName))
            let document = "/records/2024/01.automerge"
            try FileManager.default.removeItem(atPath: path + document)
            try FileManager.default.copyItem(atPath: other + document, toPath: path + document)

            let reported = Mutex<[TreeChange]>([])
            tree.setChangeHandler { change in reported.withLock { $0.append(change) } }
            var fields = try #require(try JSONSerialization.jsonObject(with: Data(file.contents)) as? [String: Any])
            fields["comment"] = "edited while the phone's version arrived"
            try tree.write(Array(try JSONSerialization.data(withJSONObject: fields)), toPath: "/records/2024/01/" + file.name)
            let changes = reported.withLock { $0 }
            #expect(changes.count == 1 && changes.allSatisfy { !$0.keepsNames }, "\(changes)")
            #expect(try tree.store.recordFiles(in: Self.january).map(\.name).contains(added.fileName), "the phone's record is shown")
        }
    }

    @Test("a synchronization pass that merges another device's conflict copy reports the month, each of its record files and its reports")
    func synchronizationReportsMergedMonth() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder, name: "A")
            let other = try StoreFixture.copyOfAppStore(into: folder, name: "B")
            let otherStore = try Store(folder: FilePath(other), timeZone: .utc)
            let file = try #require(try otherStore.recordFiles(in: Self.january).first { String(decoding: $0.contents, as: UTF8.self).contains("an Jürgen") })
            let edited = String(decoding: file.contents, as: UTF8.self).replacingOccurrences(of: "an Jürgen", with: "an Ana")
            _ = try otherStore.writeRecordFile(Array(edited.utf8), named: file.name, in: Self.january)

            let tree = StoreView(store: try Store(folder: FilePath(path), timeZone: .utc))
            let synchronizer = try StoreSynchronizer(tree: tree)
            let reported = Mutex<[String]>([])
            tree.setChangeHandler { change in reported.withLock { $0 += change.paths } }
            synchronizer.synchronize()
            #expect(reported.withLock { $0 }.isEmpty, "nothing changed yet")

            try FileManager.default.copyItem(atPath: other + "/records/2024/01.automerge",
                                             toPath: path + "/records/2024/01 (Bob's conflicted copy 2024-01-15).automerge")
            synchronizer.synchronize()
            let paths = Set(reported.withLock { $0 })
            let files = try tree.store.recordFiles(in: Self.january).map { "/records/2024/01/" + $0.name }
            #expect(paths.contains("/records/2024/01"))
            #expect(paths.isSuperset(of: files), "every record file of the month: its cached pages are stale")
            #expect(paths.contains("/reports/2024/01.csv"))
            #expect(!paths.contains("/records/2024/02"), "months the copy did not touch stay cached")
            #expect(try String(decoding: tree.contents(ofPath: "/records/2024/01/" + file.name), as: UTF8.self).contains("an Ana"))
        }
    }

    @Test("the mount's change handler is called the same way at the 300th save as at the first: nothing piles up per save")
    func changeHandlerStaysDirect() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let tree = StoreView(store: try Store(folder: FilePath(path), timeZone: .utc))
            // How deep the stack is inside the handler at each report. A function value kept directly in a
            // Mutex was wrapped in two more reabstraction thunks at every `withLock` that read it, so a
            // long-running mount called its handler through one more pair per save: 2.3 ms per save after a
            // remount against 5.5 ms live after 4,000 more, and memory that grew with every save.
            let depths = Mutex<[Int]>([])
            tree.setChangeHandler { _ in depths.withLock { $0.append(Thread.callStackReturnAddresses.count) } }
            let file = try #require(try tree.store.recordFiles(in: Self.january).first)
            var record = try #require(try JSONSerialization.jsonObject(with: Data(file.contents)) as? [String: Any])
            for index in 1...300 {
                record["comment"] = "edit \(index)"
                let edited = try JSONSerialization.data(withJSONObject: record, options: [.prettyPrinted, .sortedKeys])
                try tree.write(Array(edited), toPath: "/records/2024/01/" + file.name)
            }
            let seen = depths.withLock { $0 }
            #expect(seen.count >= 300, "every save reports its month's reports")
            #expect(Set(seen).count == 1, "stack depths inside the handler: first \(seen.prefix(3)), last \(seen.suffix(3))")
        }
    }
}

/// Synchronization passes never overlap: the watcher's and the periodic thread's passes run one at a
/// time, so two never merge the same conflict copy (the second would count a failed merge).
@Suite struct SynchronizationPassTests {
    @Test("passes started from two threads at once over many conflict copies merge every copy once and count no failed merge")
    func passesDoNotOverlap() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder, name: "A")
            let other = try StoreFixture.copyOfAppStore(into: folder, name: "B")
            let january = try #require(Month(year: 2024, month: 1))
            let otherStore = try Store(folder: FilePath(other), timeZone: .utc)
            let file = try #require(try otherStore.recordFiles(in: january).first)
            let edited = String(decoding: file.contents, as: UTF8.self).replacingOccurrences(of: "\"images\"", with: "\"note\": \"b\",\n  \"images\"")
            _ = try otherStore.writeRecordFile(Array(edited.utf8), named: file.name, in: january)
            let tree = StoreView(store: try Store(folder: FilePath(path), timeZone: .utc))
            let synchronizer = try StoreSynchronizer(tree: tree)
            for round in 0..<4 {
                for day in 1...20 {
                    let name = String(format: "01 (conflicted copy 2024-%02d-%02d).automerge", round + 1, day)
                    try FileManager.default.copyItem(atPath: other + "/records/2024/01.automerge", toPath: path + "/records/2024/" + name)
                }
                // The watcher's thread and the periodic thread, at once.
                DispatchQueue.concurrentPerform(iterations: 2) { _ in
                    for _ in 0..<3 { synchronizer.synchronize() }
                }
            }
            let status = tree.store.status()
            #expect(status.failedMerges == 0, "\(status.lastMergeFailure ?? "")")
            #expect(status.mergedCopies == 80)
            #expect(try FileManager.default.contentsOfDirectory(atPath: path + "/records/2024").filter { $0.contains("conflicted") }.isEmpty)
        }
    }
}
