import AutomergeKit
import Foundation
import MinutaStore
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// Two replicas of a store, each mounted, edited at the same time through their mounts, and kept in
/// step by a simulated sync tool (`SimulatedSyncTool`: whole-file replacement, conflict copies when
/// both sides changed a file). When the tool has nothing left to do, both mounts show the same
/// tree; every edit is there, or was lost to a later write of the same field: to one made after
/// it was seen, or to a concurrent one, and then it is listed in `.minutafs/conflicts`.
///
/// Both sides write the comment of a few shared records (concurrent writes of one field), and
/// create, edit, move and remove records of their own. About 100 edits; `SOAK=1` makes 600. The
/// choices come from a fixed seed, a random one under `SOAK=1`, or `MINUTAFS_SEED` (`TestSeed`);
/// every failure names it.
@Suite(.serialized)
struct ReplicaSyncTests {
    static let soak = ProcessInfo.processInfo.environment["SOAK"] == "1"

    @Test("two replicas edited at once and synced: the same tree, no edit lost but to a later write, conflicts listed")
    func concurrentReplicas() throws {
        let seed = TestSeed.announce("replicas", fixed: 0x6D69_6E75_7461_0002)
        do {
            try concurrentReplicas(seed: seed)
        } catch {
            Issue.record("seed \(seed): \(error)")
        }
    }

    func concurrentReplicas(seed: UInt64) throws {
        try withTemporaryDirectory { folder in
            for side in ["a", "b"] { try FileManager.default.createDirectory(atPath: folder + "/" + side, withIntermediateDirectories: false) }
            let first = try MountedStore(in: folder + "/a")
            try FileManager.default.copyItem(atPath: first.store, toPath: folder + "/b/store")
            let second = try MountedStore(in: folder + "/b", copyingSample: false)
            let sync = try SimulatedSyncTool(first.store, second.store, seed: seed &+ 2)
            sync.start()
            defer { sync.stop() }

            let setup = try ReplicaSetup(store: first.store)
            let editsPerSide = Self.soak ? 300 : 50
            let editors = [
                ReplicaEditor(name: "A", mountPoint: first.mountPoint, setup: setup, parity: 0, edits: editsPerSide, seed: seed),
                ReplicaEditor(name: "B", mountPoint: second.mountPoint, setup: setup, parity: 1, edits: editsPerSide, seed: seed &+ 1),
            ]
            let group = DispatchGroup()
            for editor in editors { DispatchQueue.global().async(group: group) { editor.run() } }
            group.wait()
            for editor in editors { for failure in editor.results.withLock({ $0.failures }) { Issue.record("seed \(seed): \(failure)") } }

            // Quiet: the tool has nothing to do, no conflict copy waits, both mounts show the same.
            var stableChecks = 0
            var lastChanges = -1
            // Settling is what is checked, not its speed: a loaded machine (the whole suite on 2 cores) needs longer.
            let deadline = Date().addingTimeInterval(Self.soak ? 180 : 120)
            var treeA: [String: [UInt8]] = [:]
            var treeB: [String: [UInt8]] = [:]
            while stableChecks < 3 && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.5)
                let changes = sync.changeCount
                treeA = try Self.tree(first.mountPoint)
                treeB = try Self.tree(second.mountPoint)
                let copiesWaiting = try Self.conflictCopies(first.store) + Self.conflictCopies(second.store)
                stableChecks = changes == lastChanges && copiesWaiting.isEmpty && treeA == treeB ? stableChecks + 1 : 0
                lastChanges = changes
            }
            #expect(stableChecks >= 3, "seed \(seed): the replicas did not settle")
            let onlyOnOneSide = Set(treeA.keys).symmetricDifference(treeB.keys).sorted()
            #expect(onlyOnOneSide.isEmpty, "seed \(seed): shown by one mount only: \(onlyOnOneSide)")
            for (path, bytes) in treeA where treeB[path] != nil && treeB[path] != bytes { Issue.record("seed \(seed): \(path) differs") }
            let conflictsA = try first.text(first.mountPoint + "/.minutafs/conflicts")
            let conflictsB = try second.text(second.mountPoint + "/.minutafs/conflicts")
            sync.stop()
            #expect(first.unmount() == 0, "seed \(seed): unmounting A failed")
            #expect(second.unmount() == 0, "seed \(seed): unmounting B failed")
            let tally = try Self.verify(editors: editors, store: first.store, conflicts: [conflictsA, conflictsB], seed: seed)
            print("replicas, seed \(seed): \(sync.changeCount) files synced, \(sync.conflictCopyCount) conflict copies made by the tool; "
                + "each side's last shared comment: \(tally.shown) shown, \(tally.concurrent) concurrent and listed, \(tally.overwritten) overwritten later")
        }
    }

    /// Every file the mount shows (but `.minutafs/`), with its bytes.
    static func tree(_ mountPoint: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: mountPoint)
        while let relative = enumerator?.nextObject() as? String {
            if relative == ".minutafs" { enumerator?.skipDescendants(); continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: mountPoint + "/" + relative, isDirectory: &isDirectory) else { continue }
            files[relative] = isDirectory.boolValue ? [] : MountClient.read(mountPoint + "/" + relative)
        }
        return files
    }

    static func conflictCopies(_ store: String) throws -> [String] {
        try Shell.run("find '\(store)' -name '*conflicted copy*'").output.split(separator: "\n").map(String.init)
    }

    /// Checks the records; returns how many last values were shown, listed as concurrent, and overwritten later.
    @discardableResult
    static func verify(editors: [ReplicaEditor], store: String, conflicts: [String], seed: UInt64) throws -> (shown: Int, concurrent: Int, overwritten: Int) {
        var tally = (shown: 0, concurrent: 0, overwritten: 0)
        let reopened = try Store(folder: FilePath(store), timeZone: .utc)
        var found: [String: [(month: Month, object: NSDictionary)]] = [:]
        for month in try reopened.months() {
            for file in try reopened.recordFiles(in: month) {
                found[file.id, default: []].append((month, try CrashRun.object(file.contents)))
            }
        }
        // Each side's own records are exactly as it last wrote them, in the right month, once.
        for editor in editors {
            for record in editor.results.withLock({ $0.owned.values }) {
                let places = found[record.id] ?? []
                guard let expected = record.possible[0] else {
                    #expect(places.isEmpty, "seed \(seed): \(record.id), removed by \(editor.name), is still in \(places.map(\.month))")
                    continue
                }
                #expect(places.count == 1 && places.first?.month == record.month, "seed \(seed): \(record.id) is in \(places.map(\.month)), not \(record.month)")
                #expect(places.first?.object == expected, "seed \(seed): \(record.id): \(places.first?.object ?? [:]) is not \(expected)")
            }
        }
        // The shared comments: each side's last value is shown, or is a concurrent value listed in
        // .minutafs/conflicts, or was overwritten by the other side later; no written value is
        // missing from the documents' history.
        let writes = editors.flatMap { editor in editor.results.withLock { $0.sharedWrites }.map { (editor.name, $0) } }
        for shared in ReplicaSetup.sharedRecords(in: reopened) {
            let document = try #require(try reopened.document(of: shared.month))
            guard case .object(let record, .map)? = document.value(of: .root, key: shared.id) else {
                Issue.record("seed \(seed): shared record \(shared.id) is gone")
                continue
            }
            let visible: [String] = document.values(of: record, key: "comment").compactMap {
                if case .scalar(.string(let text)) = $0.value { return text }
                return nil
            }
            let shown = visible.last
            var history = Set<String>()
            for change in document.changes {
                for operation in document.operations(ofChange: change.hash) ?? [] where operation.key == "comment" {
                    if case .string(let text) = operation.value { history.insert(text) }
                }
            }
            let written = writes.filter { $0.1.id == shared.id }
            for write in written { #expect(history.contains(write.1.value), "seed \(seed): \(write.1.value) is not in the history") }
            for editor in editors {
                guard let last = written.last(where: { $0.0 == editor.name })?.1 else { continue }
                if last.value == shown {
                    tally.shown += 1
                    continue
                }
                if visible.contains(last.value) {
                    tally.concurrent += 1
                    for text in conflicts {
                        #expect(text.contains("\"\(last.value)\""), "seed \(seed): \(last.value) (concurrent with \(shown ?? "nothing")) is not in .minutafs/conflicts")
                    }
                } else {
                    tally.overwritten += 1
                    let later = written.contains { $0.0 != editor.name && $0.1.time > last.time }
                    #expect(later, "seed \(seed): \(last.value) was lost, but nothing was written after it")
                }
            }
        }
        return tally
    }
}

/// What both editors share: the records whose comment both write, and the start seconds taken.
struct ReplicaSetup: Sendable {
    struct Shared: Sendable {
        var id: String
        var month: Month
        var name: String
        /// The record's JSON as the mount showed it, as text (the comment is replaced).
        var json: String
    }

    let shared: [Shared]
    let usedSeconds: Set<Int64>

    static let sharedIDs = 6

    init(store: String) throws {
        let sample = try Store(folder: FilePath(store), timeZone: .utc)
        var seconds = Set<Int64>()
        for month in try sample.months() {
            for file in try sample.recordFiles(in: month) {
                if let start = try CrashRun.object(file.contents)["startTime"] as? String, let milliseconds = ISO8601.milliseconds(from: start) {
                    seconds.insert(milliseconds / 1000)
                }
            }
        }
        usedSeconds = seconds
        shared = Self.sharedRecords(in: sample)
    }

    /// The first few January records whose comment is a plain string or absent (a text comment
    /// would merge concurrent edits character by character instead of keeping one).
    static func sharedRecords(in store: Store) -> [Shared] {
        let january = Month(year: 2024, month: 1)!
        guard let document = try? store.document(of: january), let files = try? store.recordFiles(in: january) else { return [] }
        return files.compactMap { file -> Shared? in
            guard case .object(let record, .map)? = document.value(of: .root, key: file.id) else { return nil }
            switch document.value(of: record, key: "comment") {
            case nil, .scalar(.string)?: return Shared(id: file.id, month: january, name: file.name, json: String(decoding: file.contents, as: UTF8.self))
            default: return nil
            }
        }.prefix(sharedIDs).map { $0 }
    }
}

/// One side's stream of edits through its mount, run on a thread of its own.
final class ReplicaEditor: Sendable {
    struct Write: Sendable {
        var id: String
        var value: String
        var time: ContinuousClock.Instant
    }

    struct Results: @unchecked Sendable {  // NSDictionary: written by the editor's thread, read after it ends
        var sharedWrites: [Write] = []
        var owned: [String: TrackedRecord] = [:]
        var failures: [String] = []
    }

    let name: String
    let mountPoint: String
    let setup: ReplicaSetup
    /// New records start at even (side A) or odd (side B) seconds, so their names never collide.
    let parity: Int64
    let edits: Int
    let seed: UInt64
    let results = Mutex(Results())

    static let months = (1...8).compactMap { Month(year: 2024, month: $0) }

    init(name: String, mountPoint: String, setup: ReplicaSetup, parity: Int64, edits: Int, seed: UInt64) {
        self.name = name
        self.mountPoint = mountPoint
        self.setup = setup
        self.parity = parity
        self.edits = edits
        self.seed = seed
    }

    func path(_ month: Month, _ file: String) -> String { mountPoint + "/" + month.folderPath + "/" + file }

    func run() {
        var random = SeededGenerator(seed: seed)
        var results = Results()
        var usedSeconds = setup.usedSeconds
        func check(_ outcome: MountClient.Outcome, _ what: String) -> Bool {
            if !outcome.succeeded { results.failures.append("\(name): \(what): \(outcome)") }
            return outcome.succeeded
        }
        func json(_ object: NSDictionary) -> [UInt8] {
            (try? CrashRun.json(object)) ?? []
        }
        for edit in 0..<edits {
            usleep(UInt32.random(in: 0...20_000, using: &random))
            let mine = results.owned.values.filter { $0.possible[0] != nil }.map(\.id).sorted()
            let choice = Int.random(in: 0..<100, using: &random)
            if choice < 40 || (mine.isEmpty && choice >= 60) {
                guard let record = setup.shared.randomElement(using: &random) else { continue }
                let value = "\(name)-\(edit)"
                guard var object = try? CrashRun.object(Array(record.json.utf8)) as? [String: Any] else { continue }
                object["comment"] = value
                if check(MountClient.write(json(object as NSDictionary), to: path(record.month, record.name)), "shared \(record.id)") {
                    results.sharedWrites.append(Write(id: record.id, value: value, time: .now))
                }
            } else if choice < 60 {
                let month = Self.months.randomElement(using: &random)!
                var start: Int64 = 0
                repeat {
                    let base = (ISO8601.milliseconds(from: "\(month.yearName)-\(month.monthName)-02T00:00:00Z") ?? 0) / 1000
                    start = base + Int64.random(in: 0..<(25 * 43_200), using: &random) * 2 + parity
                } while !usedSeconds.insert(start).inserted
                let id = UUID().uuidString
                let object: NSDictionary = ["id": id, "startTime": CrashRun.iso(start * 1000), "endTime": CrashRun.iso(start * 1000 + 1_800_000),
                                            "comment": "\(name) created \(edit)", "images": [String]()]
                _ = MountClient.makeDirectory(mountPoint + "/records/" + month.yearName)
                _ = MountClient.makeDirectory(mountPoint + "/" + month.folderPath)
                if check(MountClient.write(json(object), to: path(month, "new-\(name)-\(edit).json")), "create") {
                    results.owned[id] = TrackedRecord(id: id, month: month, name: CrashRun.name(ofStart: start), possible: [object], images: [:])
                }
            } else {
                guard var record = results.owned[mine.randomElement(using: &random)!], let current = record.possible[0] as? [String: Any] else { continue }
                var object = current
                switch choice {
                case 60..<75: object["comment"] = "\(name) changed \(edit)"
                case 75..<82:
                    let start = ISO8601.milliseconds(from: current["startTime"] as? String ?? "") ?? 0
                    object["endTime"] = CrashRun.iso(start + Int64.random(in: 1...300, using: &random) * 60_000)
                case 82..<90:
                    let image = record.id + "_\(name)\(edit).jpg"
                    let bytes = (0..<Int.random(in: 100...5_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                    guard check(MountClient.write(bytes, to: path(record.month, image)), "image \(image)") else { continue }
                    object["images"] = (current["images"] as? [String] ?? []) + [image]
                    record.possible = [object as NSDictionary]
                    results.owned[record.id] = record
                    continue
                case 90..<95:
                    let month = Self.months.filter { $0 != record.month }.randomElement(using: &random)!
                    var start: Int64 = 0
                    repeat {
                        let base = (ISO8601.milliseconds(from: "\(month.yearName)-\(month.monthName)-02T00:00:00Z") ?? 0) / 1000
                        start = base + Int64.random(in: 0..<(25 * 43_200), using: &random) * 2 + parity
                    } while !usedSeconds.insert(start).inserted
                    object["startTime"] = CrashRun.iso(start * 1000)
                    object["endTime"] = CrashRun.iso(start * 1000 + 600_000)
                    _ = MountClient.makeDirectory(mountPoint + "/records/" + month.yearName)
                    _ = MountClient.makeDirectory(mountPoint + "/" + month.folderPath)
                    guard check(MountClient.write(json(object as NSDictionary), to: path(record.month, record.name)), "move \(record.id)") else { continue }
                    record.possible = [object as NSDictionary]
                    record.month = month
                    record.name = CrashRun.name(ofStart: start)
                    results.owned[record.id] = record
                    continue
                default:
                    guard check(MountClient.remove(path(record.month, record.name)), "remove \(record.id)") else { continue }
                    record.possible = [nil]
                    results.owned[record.id] = record
                    continue
                }
                if check(MountClient.write(json(object as NSDictionary), to: path(record.month, record.name)), "edit \(record.id)") {
                    record.possible = [object as NSDictionary]
                    results.owned[record.id] = record
                }
            }
        }
        let finished = results
        self.results.withLock { $0 = finished }
    }
}
