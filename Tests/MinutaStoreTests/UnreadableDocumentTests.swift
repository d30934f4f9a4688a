import AutomergeKit
import Foundation
@testable import MinutaStore
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// SPEC 5a in the store, without a mount: a document file that does not load is never written over,
/// what the store holds beyond it goes to a conflict copy, and a save never replaces a version it has
/// not merged. (The same through a real mount: `Tests/MountTests/UnreadableDocumentMountTests.swift`.)
struct UnreadableDocumentTests {
    static let january = Month(year: 2024, month: 1)!
    static let plainName = "2024-01-03_034234.json"

    func edit(_ store: Store, _ name: String = Self.plainName, in month: Month = Self.january, comment: String) throws {
        let file = try #require(try store.recordFile(named: name, in: month))
        var json = try #require(try JSONSerialization.jsonObject(with: Data(file.contents)) as? [String: Any])
        json["comment"] = comment
        let bytes = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
        _ = try store.writeRecordFile(Array(bytes), named: name, in: month)
    }

    /// Replaces a file the way a sync tool does: a temporary file in the same folder, then a rename.
    func deliver(_ bytes: [UInt8], to path: String) throws {
        let temporary = BackingFiles.parentPath(path) + "/.syncthing.delivery.tmp"
        try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        #expect(rename(temporary, path) == 0)
    }

    @Test("an edit of a month whose file stopped loading is refused, the file is untouched, and held changes go to a conflict copy")
    func heldChangesPreserved() throws {
        try withTemporaryDirectory { folder in
            let storePath = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(storePath), timeZone: .utc)
            try edit(store, comment: "saved before the file broke")
            let primary = storePath + "/records/2024/01.automerge"
            let good = try Fixtures.contents(ofFileAtPath: primary)
            let broken = Array(good.prefix(good.count / 2))
            try deliver(broken, to: primary)

            #expect(throws: StoreError.self) { try edit(store, comment: "after") }
            #expect(try Fixtures.contents(ofFileAtPath: primary) == broken)
            // The month still shows what was last read, with this store's save.
            let shown = try #require(try store.recordFile(named: Self.plainName, in: Self.january))
            #expect(String(decoding: shown.contents, as: UTF8.self).contains("saved before the file broke"))
            let status = store.status().unreadableDocuments
            #expect(status.map(\.file) == ["records/2024/01.automerge"])
            let copy = try #require(status.first?.preservedIn)
            #expect(copy.hasPrefix("records/2024/01 (minutafs conflicted copy "))
            #expect(ConflictCopyName.match(BackingFiles.lastComponent(copy))?.primaryName == "01.automerge")
            let copied = try Document.load(Fixtures.contents(ofFileAtPath: storePath + "/" + copy))
            #expect(try #require(try store.document(of: Self.january)).heads.allSatisfy(copied.containsChange))

            // Synchronizing leaves the broken file alone too.
            _ = try store.synchronizeDocuments()
            #expect(try store.mergeConflictCopies().allSatisfy { if case .waiting = $0.outcome { true } else { false } })
            #expect(try Fixtures.contents(ofFileAtPath: primary) == broken)

            // A readable version with a change of another device comes back: merged, writable, copy merged and gone.
            var device = try Document.load(good).fork()
            try device.put(.string("from the phone"), forKey: "phoneNote")
            try deliver(device.save(), to: primary)
            #expect(try store.synchronizeDocuments() == ["records/2024/01.automerge"])
            _ = try store.mergeConflictCopies()
            #expect(store.status().unreadableDocuments.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: storePath + "/" + copy))
            try edit(store, comment: "writable again")
            let onDisk = try Document.load(Fixtures.contents(ofFileAtPath: primary))
            #expect(onDisk.value(of: .root, key: "phoneNote") != nil)
            #expect(device.heads.allSatisfy(onDisk.containsChange))
        }
    }

    @Test("a month that never loaded refuses edits and is never written, also when a record is created there")
    func neverLoaded() throws {
        try withTemporaryDirectory { folder in
            let storePath = try StoreFixture.copyOfAppStore(into: folder)
            let primary = storePath + "/records/2024/02.automerge"
            try deliver([], to: primary)
            let store = try Store(folder: FilePath(storePath), timeZone: .utc)
            let february = Month(year: 2024, month: 2)!
            #expect(throws: StoreError.unloadableDocument(file: "records/2024/02.automerge", reason: .empty)) { try store.recordFiles(in: february) }
            let record = #"{"startTime": "2024-02-10T10:00:00Z", "endTime": "2024-02-10T11:00:00Z", "images": []}"#
            #expect(throws: StoreError.unloadableDocument(file: "records/2024/02.automerge", reason: .empty)) {
                _ = try store.writeRecordFile(Array(record.utf8), named: "new.json", in: february)
            }
            #expect(try Fixtures.contents(ofFileAtPath: primary).isEmpty)
            #expect(store.check().contains { $0.hasPrefix("records/2024/02.automerge: cannot be loaded") })
            // No held changes: nothing to preserve, no copy written.
            #expect(try FileManager.default.contentsOfDirectory(atPath: storePath + "/records/2024").filter { $0.contains("minutafs conflicted") }.isEmpty)
        }
    }

    @Test("a save fails when the folder's fsync fails")
    func folderFsyncFailure() throws {
        try withTemporaryDirectory { folder in
            let storePath = try StoreFixture.copyOfAppStore(into: folder)
            let faults = FaultInjection()
            let store = try Store(folder: FilePath(storePath), timeZone: .utc, faults: faults)
            faults.inject(.fsyncDirectory, errno: EIO, under: FilePath(storePath))
            defer { faults.clear(.fsyncDirectory, under: FilePath(storePath)) }
            #expect(throws: StoreError.system(file: storePath + "/records/2024", operation: "fsync of the folder", errno: .ioError)) {
                try edit(store, comment: "not durable")
            }
        }
    }

    @Test("without exchange the save falls back to a checked rename and still merges a delivered version")
    func renameFallback() throws {
        try withTemporaryDirectory { folder in
            let storePath = try StoreFixture.copyOfAppStore(into: folder)
            let faults = FaultInjection()
            faults.inject(.exchange, errno: EINVAL, under: FilePath(storePath))
            defer { faults.clear(.exchange, under: FilePath(storePath)) }
            let store = try Store(folder: FilePath(storePath), timeZone: .utc, faults: faults)
            try edit(store, comment: "first")
            let primary = storePath + "/records/2024/01.automerge"
            var device = try Document.load(Fixtures.contents(ofFileAtPath: primary)).fork()
            try device.put(.string("delivered"), forKey: "deviceNote")
            try deliver(device.save(), to: primary)
            try edit(store, comment: "second")
            let onDisk = try Document.load(Fixtures.contents(ofFileAtPath: primary))
            #expect(device.heads.allSatisfy(onDisk.containsChange))
            #expect(try String(decoding: #require(try store.recordFile(named: Self.plainName, in: Self.january)).contents, as: UTF8.self).contains("second"))
        }
    }

    @Test("racing a sync tool that keeps replacing the file: every acknowledged save and every delivered change ends up on disk")
    func racingWriters() throws {
        let rounds = ProcessInfo.processInfo.environment["SOAK"] == "1" ? 1500 : 200
        try withTemporaryDirectory { folder in
            let storePath = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(storePath), timeZone: .utc)
            let primary = storePath + "/records/2024/03.automerge"
            let march = Month(year: 2024, month: 3)!
            let acknowledged = Mutex<[String]>([])
            let delivered = Mutex<[String]>([])
            let failures = Mutex<[String]>([])
            // Threads that have returned: the assertions wait for both, not for a time.
            let finished = Mutex(0)
            let writer = Thread {
                defer { finished.withLock { $0 += 1 } }
                for round in 0..<rounds {
                    let start = 1_709_280_000_000 + Int64(round) * 60_000
                    let json = #"{"startTime": \#(start), "endTime": \#(start + 30_000), "comment": "mount \#(round)", "images": []}"#
                    do {
                        _ = try store.writeRecordFile(Array(json.utf8), named: "new-\(round).json", in: march)
                        acknowledged.withLock { $0.append("mount \(round)") }
                    } catch {
                        failures.withLock { $0.append("save \(round): \(error)") }
                    }
                }
            }
            // Each delivery is what the file held a moment ago plus one change of another device, which
            // keeps no copy: a delivery replaced unmerged is lost for good, as with a real sync tool.
            let syncTool = Thread {
                defer { finished.withLock { $0 += 1 } }
                for round in 0..<rounds {
                    do {
                        var device = try Document.load(Fixtures.contents(ofFileAtPath: primary)).fork()
                        let record = try device.putObject(.map, forKey: "DE71CE00-0000-4000-8000-\(String(format: "%012d", round))")
                        try device.put(.string("device \(round)"), forKey: "comment", in: record)
                        try device.put(.timestamp(1_709_280_000_000 + Int64(round) * 60_000 + 1_000), forKey: "startTime", in: record)
                        _ = try device.putObject(.list, forKey: "images", in: record)
                        let temporary = storePath + "/records/2024/.syncthing.03.automerge.tmp"
                        try Data(device.save()).write(to: URL(fileURLWithPath: temporary))
                        guard rename(temporary, primary) == 0 else { throw FixtureError("rename failed") }
                        delivered.withLock { $0.append("device \(round)") }
                        // The watcher's pass, which a sync tool's delivery triggers in a mount.
                        if round % 10 == 0 { _ = try store.synchronizeDocuments() }
                    } catch {
                        failures.withLock { $0.append("delivery \(round): \(error)") }
                    }
                }
            }
            writer.start()
            syncTool.start()
            try #require(eventually(within: 600) { finished.withLock { $0 } == 2 }, "the writer or the sync tool did not finish")
            _ = try store.synchronizeDocuments()
            #expect(failures.withLock { $0 }.isEmpty)
            let onDisk = try Document.load(Fixtures.contents(ofFileAtPath: primary))
            var comments = Set<String>()
            for key in onDisk.keys(of: .root) {
                guard case .object(let record, _)? = onDisk.value(of: .root, key: key) else { continue }
                switch onDisk.value(of: record, key: "comment") {
                case .scalar(.string(let comment))?: comments.insert(comment)
                case .object(let text, .text)?: comments.insert(onDisk.text(of: text))
                default: continue
                }
            }
            let missingSaves = acknowledged.withLock { $0 }.filter { !comments.contains($0) }
            let missingDeliveries = delivered.withLock { $0 }.filter { !comments.contains($0) }
            #expect(acknowledged.withLock { $0.count } == rounds)
            #expect(missingSaves.isEmpty, "acknowledged saves missing from the file: \(missingSaves.prefix(5))")
            #expect(missingDeliveries.isEmpty, "delivered changes missing from the file: \(missingDeliveries.prefix(5))")
        }
    }

    @Test("a document a killed save left under its temporary name is merged into its document, never just deleted")
    func staleTemporaryDocumentsAreMerged() throws {
        try withTemporaryDirectory { folder in
            let storePath = try StoreFixture.copyOfAppStore(into: folder)
            let folder2024 = storePath + "/records/2024"
            // What a save killed between the exchange and its check leaves: the displaced version, with a change of its own.
            var displaced = try Document.load(Fixtures.contents(ofFileAtPath: folder2024 + "/03.automerge")).fork()
            try displaced.put(.string("only in the displaced file"), forKey: "deviceNote")
            try Data(displaced.save()).write(to: URL(fileURLWithPath: folder2024 + "/.03.automerge.minutafs-1a2b3c.tmp"))
            // A cut-short temporary file: kept in the quarantine with its bytes.
            let half = Array(try Fixtures.contents(ofFileAtPath: folder2024 + "/04.automerge").prefix(40))
            try Data(half).write(to: URL(fileURLWithPath: folder2024 + "/.04.automerge.minutafs-4d5e6f.tmp"))
            // A leftover whose document does not load: it goes to a conflict copy beside it.
            var leftover = try Document.load(Fixtures.contents(ofFileAtPath: folder2024 + "/05.automerge")).fork()
            try leftover.put(.string("left over"), forKey: "leftoverNote")
            try Data(leftover.save()).write(to: URL(fileURLWithPath: folder2024 + "/.05.automerge.minutafs-7a8b9c.tmp"))
            try deliver([], to: folder2024 + "/05.automerge")

            let store = try Store(folder: FilePath(storePath), timeZone: .utc)
            let removed = store.removeStaleTemporaryFiles(olderThan: -10)
            #expect(Set(removed) == ["records/2024/.03.automerge.minutafs-1a2b3c.tmp", "records/2024/.04.automerge.minutafs-4d5e6f.tmp", "records/2024/.05.automerge.minutafs-7a8b9c.tmp"])
            let march = try Document.load(Fixtures.contents(ofFileAtPath: folder2024 + "/03.automerge"))
            #expect(displaced.heads.allSatisfy(march.containsChange))
            let quarantined = try FileManager.default.contentsOfDirectory(atPath: storePath + "/.minutafs-quarantine")
            #expect(quarantined.count == 1)
            #expect(try quarantined.first.map { try Fixtures.contents(ofFileAtPath: storePath + "/.minutafs-quarantine/" + $0) } == half)
            #expect(try Fixtures.contents(ofFileAtPath: folder2024 + "/05.automerge").isEmpty)
            let copies = try FileManager.default.contentsOfDirectory(atPath: folder2024).filter { $0.hasPrefix("05 (minutafs conflicted copy ") }
            #expect(copies.count == 1)
            let copy = try Document.load(Fixtures.contents(ofFileAtPath: folder2024 + "/" + (copies.first ?? "")))
            #expect(leftover.heads.allSatisfy(copy.containsChange))
        }
    }

    @Test("tags.automerge that stops loading: tags.json shows what was read, edits are refused, the file is untouched")
    func unreadableTags() throws {
        try withTemporaryDirectory { folder in
            let storePath = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(storePath), timeZone: .utc)
            let shown = try store.tagsFile()
            let edited = String(decoding: shown, as: UTF8.self).replacingOccurrences(of: "\"name\": \"", with: "\"name\": \"Renamed ")
            #expect(try store.writeTagsFile(Array(edited.utf8)))
            let primary = storePath + "/tags.automerge"
            var newer = try Fixtures.contents(ofFileAtPath: primary)
            newer += [0x85, 0x6f, 0x4a, 0x83, 0, 0, 0, 0, 9, 0]
            try deliver(newer, to: primary)
            _ = try store.synchronizeDocuments()
            #expect(try Fixtures.contents(ofFileAtPath: primary) == newer)
            #expect(String(decoding: try store.tagsFile(), as: UTF8.self).contains("Renamed "))
            #expect(throws: StoreError.self) { _ = try store.writeTagsFile(shown) }
            #expect(try Fixtures.contents(ofFileAtPath: primary) == newer)
            let copies = try FileManager.default.contentsOfDirectory(atPath: storePath).filter { $0.hasPrefix("tags (minutafs conflicted copy ") }
            #expect(copies.count == 1)
            #expect(ConflictCopyName.match(copies.first ?? "")?.primaryName == "tags.automerge")
        }
    }
}
