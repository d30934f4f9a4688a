import AutomergeKit
import Foundation
import MinutaStore
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// `kill -9` of the mount at random moments during a stream of edits made through it (records
/// created, edited, moved between months, deleted, images attached) while a sync tool drops
/// conflict copies beside the documents. After each kill the store is mounted again; at the end
/// every save whose `close` or `fsync` returned 0 is there, every document loads, no temporary
/// file shows in the mount, and every conflict copy is merged or still there, intact.
///
/// The default run makes about 100 edits and 3 kills; `SOAK=1` makes 600 edits and 15 kills over
/// two years of months. The choices come from a fixed seed, a random one under `SOAK=1`, or
/// `MINUTAFS_SEED` (`TestSeed`); every failure names it (kill timing still varies).
@Suite(.serialized)
struct CrashSafetyTests {
    static let soak = ProcessInfo.processInfo.environment["SOAK"] == "1"

    @Test("kill -9 during edits: confirmed saves survive, documents load, conflict copies are merged or intact")
    func killedDuringEdits() throws {
        let seed = TestSeed.announce("crash safety", fixed: 0x6D69_6E75_7461_0001)
        do {
            try withTemporaryDirectory { folder in
                var run = try CrashRun(folder: folder, seed: seed, edits: Self.soak ? 600 : 100, kills: Self.soak ? 15 : 3,
                                       months: Self.soak ? 24 : 9)
                try run.editAndKill()
                try run.verify()
            }
        } catch {
            Issue.record("seed \(seed): \(error)")
        }
    }

    @Test("temporary files the store left (a kill -9 mid-write) are never shown; stale ones are removed at mount")
    func staleTemporaryFiles() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/store"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
            try Shell.run("chmod -R u+w '\(store)'")
            let stale = [
                "records/2024/.01.automerge.minutafs-1f2e3d4c5b6a7988.tmp",
                ".tags.automerge.minutafs-0123456789abcdef.tmp",
                "records/2024/03/.478594E3-17C2-407E-8493-B78CB2137020_0.jpg.minutafs-ab.tmp",
            ]
            let fresh = "records/2024/.02.automerge.minutafs-fedcba9876543210.tmp"
            let notOurs = ["records/2024/.01.automerge.minutafs-notours.tmp", "records/2024/03/.syncthing.x.jpg.tmp"]
            for name in stale + [fresh] + notOurs {
                _ = FileManager.default.createFile(atPath: store + "/" + name, contents: Data("half a document".utf8))
            }
            for name in stale + notOurs { try Shell.run("touch -d '2 hours ago' '\(store)/\(name)'") }
            let mounted = try MountedStore(in: folder, copyingSample: false)
            #expect(try Shell.run("find '\(mounted.mountPoint)' -name '*.tmp'").output.isEmpty)
            for name in stale { #expect(!FileManager.default.fileExists(atPath: store + "/" + name), "\(name)") }
            for name in [fresh] + notOurs { #expect(FileManager.default.fileExists(atPath: store + "/" + name), "\(name)") }
            #expect(mounted.unmount() == 0)
        }
    }
}

/// One crash run: the model of what was written, the mount being killed, the checks.
struct CrashRun {
    let folder: String
    let seed: UInt64
    let editCount: Int
    let killPoints: Set<Int>
    let months: [Month]
    var random: SeededGenerator
    var mounted: MountedStore
    let killer = Killer()
    var records: [String: TrackedRecord] = [:]
    /// Seconds (since the epoch) some record starts at: new records get others, so names are plain.
    var usedSeconds: Set<Int64> = []
    var copies: [(path: String, bytes: [UInt8], recordID: String)] = []
    var confirmed = 0
    var unknown = 0
    var kills = 0

    var store: String { mounted.store }

    init(folder: String, seed: UInt64, edits: Int, kills: Int, months monthCount: Int) throws {
        self.folder = folder
        self.seed = seed
        editCount = edits
        random = SeededGenerator(seed: seed)
        var points = Set<Int>()
        while points.count < kills { points.insert(Int.random(in: 5..<(edits - 5), using: &random)) }
        killPoints = points
        months = (0..<monthCount).compactMap { Month(year: 2024 + $0 / 12, month: 1 + $0 % 12) }
        mounted = try MountedStore(in: folder)
        // Some of the sample's records are edited too (comments, end times); all their start
        // seconds are taken.
        let sample = try Store(folder: FilePath(mounted.store), timeZone: .utc)
        for month in try sample.months() {
            for file in try sample.recordFiles(in: month) {
                let object = try Self.object(file.contents)
                if let start = object["startTime"] as? String, let milliseconds = ISO8601.milliseconds(from: start) {
                    usedSeconds.insert(milliseconds / 1000)
                }
                if month.year == 2024, month.month <= 6, Int.random(in: 0..<40, using: &random) == 0 {
                    records[file.id] = TrackedRecord(id: file.id, month: month, name: file.name, possible: [object], images: [:])
                }
            }
        }
    }

    static func object(_ bytes: [UInt8]) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary)
    }

    static func json(_ object: NSDictionary) throws -> [UInt8] {
        [UInt8](try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]))
    }

    // MARK: Editing

    mutating func editAndKill() throws {
        for edit in 0..<editCount {
            if killPoints.contains(edit) { killer.schedule(pid: mounted.process.processIdentifier, within: 20_000, using: &random) }
            if edit % 12 == 6 { try dropConflictCopy(edit) }
            try makeEdit(edit)
        }
        killer.waitForPending()
        if killer.fired { try recover() }
    }

    /// Picks and makes one edit; records what it confirmed, or what it may have done.
    mutating func makeEdit(_ edit: Int) throws {
        let editable = records.values.filter { !$0.isFrozen && $0.possible[0] != nil }.map(\.id).sorted()
        let choice = editable.isEmpty ? 0 : Int.random(in: 0..<100, using: &random)
        switch choice {
        case 0..<30: try create(edit)
        case 30..<50: try change(editable.randomElement(using: &random)!, edit) { object, _ in object["comment"] = "comment \(edit)" }
        case 50..<60:
            try change(editable.randomElement(using: &random)!, edit) { object, run in
                let start = ISO8601.milliseconds(from: object["startTime"] as? String ?? "") ?? 0
                object["endTime"] = Self.iso(start + Int64.random(in: 1...600, using: &run.random) * 60_000)
            }
        case 60..<78: try attachImage(editable.randomElement(using: &random)!, edit)
        case 78..<83:
            try change(editable.randomElement(using: &random)!, edit) { object, _ in
                object["images"] = Array((object["images"] as? [String] ?? []).dropLast())
            }
        case 83..<95:
            guard let id = editable.filter({ !(records[$0]?.isSample ?? true) }).randomElement(using: &random) else { return try create(edit) }
            try move(id, edit)
        default: try delete(editable.randomElement(using: &random)!, edit)
        }
    }

    /// `2024-01-03T03:42:34Z` (whole seconds here).
    static func iso(_ milliseconds: Int64) -> String { ISO8601.string(milliseconds: milliseconds) }

    /// A start second in `month` no record uses.
    mutating func freeSecond(in month: Month) -> Int64 {
        while true {
            let day = Int64.random(in: 2...27, using: &random)
            let second = Int64.random(in: 0..<86_400, using: &random)
            let start = (ISO8601.milliseconds(from: "\(month.yearName)-\(month.monthName)-01T00:00:00Z") ?? 0) / 1000 + (day - 1) * 86_400 + second
            if usedSeconds.insert(start).inserted { return start }
        }
    }

    static func name(ofStart seconds: Int64) -> String {
        let text = iso(seconds * 1000)  // 2024-01-03T03:42:34Z
        return String(text.prefix(10)) + "_" + text.dropFirst(11).prefix(8).replacingOccurrences(of: ":", with: "") + ".json"
    }

    func path(_ month: Month, _ name: String) -> String { mounted.mountPoint + "/" + month.folderPath + "/" + name }

    /// Settles an edit: confirmed, or unknown because the mount was killed (then the store is
    /// mounted again), or a failure while the mount lived (a test failure).
    mutating func settle(_ outcome: MountClient.Outcome, _ edit: Int) throws -> Bool {
        if outcome.isConfirmed {
            confirmed += 1
            return true
        }
        unknown += 1
        if killer.fired {
            try recover()
        } else {
            Issue.record("seed \(seed), edit \(edit): the mount refused an edit while it was running: \(outcome)")
        }
        return false
    }

    mutating func create(_ edit: Int) throws {
        let month = months.randomElement(using: &random)!
        let start = freeSecond(in: month)
        let id = UUID().uuidString
        let object: NSDictionary = [
            "id": id, "startTime": Self.iso(start * 1000), "endTime": Self.iso(start * 1000 + Int64.random(in: 1...300, using: &random) * 60_000),
            "comment": "created \(edit)", "images": [String](),
        ]
        let name = Self.name(ofStart: start)
        var outcome = MountClient.makeDirectory(mounted.mountPoint + "/records/" + month.yearName)
        if outcome.succeeded { outcome = MountClient.makeDirectory(mounted.mountPoint + "/" + month.folderPath) }
        if outcome.succeeded { outcome = MountClient.write(try Self.json(object), to: path(month, "new-\(edit).json"), fsync: Bool.random(using: &random)) }
        var record = TrackedRecord(id: id, month: month, name: name, possible: [object], images: [:])
        if try !settle(outcome, edit) {
            record.possible = [nil, object]
            record.isFrozen = true
        }
        records[id] = record
    }

    /// Writes the record's JSON changed by `modify`.
    mutating func change(_ id: String, _ edit: Int, _ modify: (NSMutableDictionary, inout CrashRun) -> Void) throws {
        guard var record = records[id], let current = record.possible[0] else { return }
        let object = NSMutableDictionary(dictionary: current as! [AnyHashable: Any])
        modify(object, &self)
        let outcome = MountClient.write(try Self.json(object), to: path(record.month, record.name), fsync: Bool.random(using: &random))
        if try settle(outcome, edit) {
            record.possible = [object]
            for name in record.images.keys where !((object["images"] as? [String]) ?? []).contains(name) { record.images[name] = nil }
        } else {
            record.possible.append(object)
            record.isFrozen = true
        }
        records[id] = record
    }

    mutating func attachImage(_ id: String, _ edit: Int) throws {
        guard var record = records[id], let current = record.possible[0] else { return }
        let name = id + "_\(edit).jpg"
        let bytes = [0xFF, 0xD8, 0xFF, 0xE0] + (0..<Int.random(in: 100...40_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let outcome = MountClient.write(bytes, to: path(record.month, name), fsync: Bool.random(using: &random))
        let object = NSMutableDictionary(dictionary: current as! [AnyHashable: Any])
        object["images"] = ((current["images"] as? [String]) ?? []) + [name]
        if try settle(outcome, edit) {
            record.possible = [object]
            record.images[name] = bytes
        } else {
            record.possible.append(object)
            record.isFrozen = true
        }
        records[id] = record
    }

    /// A new startTime in another month: the record (and its images) move there.
    mutating func move(_ id: String, _ edit: Int) throws {
        guard var record = records[id], let current = record.possible[0] else { return }
        let month = months.filter { $0 != record.month }.randomElement(using: &random)!
        let start = freeSecond(in: month)
        let object = NSMutableDictionary(dictionary: current as! [AnyHashable: Any])
        object["startTime"] = Self.iso(start * 1000)
        object["endTime"] = Self.iso(start * 1000 + 3_600_000)
        let outcome = MountClient.write(try Self.json(object), to: path(record.month, record.name), fsync: Bool.random(using: &random))
        if try settle(outcome, edit) {
            record.possible = [object]
            record.month = month
            record.name = Self.name(ofStart: start)
        } else {
            record.possible.append(object)
            record.isFrozen = true
        }
        records[id] = record
    }

    /// `rm`: the mount removes a record 2 s after the unlink (so that `mv` from another file system
    /// is an update), so a kill may still leave it: its outcome is never certain.
    mutating func delete(_ id: String, _ edit: Int) throws {
        guard var record = records[id] else { return }
        let outcome = MountClient.remove(path(record.month, record.name))
        _ = try settle(outcome, edit)
        record.possible.append(nil)
        record.isFrozen = true
        records[id] = record
    }

    /// Another device's version of a month, with a record of its own, dropped beside the primary
    /// as a sync tool does (written elsewhere, then renamed in).
    mutating func dropConflictCopy(_ edit: Int) throws {
        let candidates = months.filter { FileManager.default.fileExists(atPath: store + "/" + $0.documentPath) }
        guard let month = candidates.randomElement(using: &random) else { return }
        let device = folder + "/device-\(edit)"
        try FileManager.default.createDirectory(atPath: device + "/records/" + month.yearName, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: store + "/" + month.documentPath, toPath: device + "/" + month.documentPath)
        let other = try Store(folder: FilePath(device), timeZone: .utc)
        let id = UUID().uuidString
        let start = freeSecond(in: month)
        let object: NSDictionary = ["id": id, "startTime": Self.iso(start * 1000), "endTime": Self.iso(start * 1000 + 60_000), "comment": "from device \(edit)", "images": [String]()]
        _ = try other.writeRecordFile(try Self.json(object), named: "new.json", in: month)
        let bytes = try Fixtures.contents(ofFileAtPath: device + "/" + month.documentPath)
        let copy = store + "/records/\(month.yearName)/\(month.monthName) (Bob's conflicted copy 2024-06-01 \(edit)).automerge"
        try Data(bytes).write(to: URL(fileURLWithPath: device + "/copy"))
        try FileManager.default.moveItem(atPath: device + "/copy", toPath: copy)
        try FileManager.default.removeItem(atPath: device)
        copies.append((copy, bytes, id))
        records[id] = TrackedRecord(id: id, month: month, name: Self.name(ofStart: start), possible: [object], images: [:], isFrozen: true, isSample: true)
    }

    /// After a kill: wait for the process, clear the dead mount, mount again; no temporary file shows.
    mutating func recover() throws {
        kills += 1
        mounted.process.waitUntilExit()
        mounted.unmount()
        killer.reset()
        mounted = try MountedStore(in: folder, copyingSample: false)
        #expect(try Shell.run("find '\(mounted.mountPoint)' -name '*.minutafs-*'").output.isEmpty, "seed \(seed): temporary files show after kill \(kills)")
    }

    // MARK: Checking

    mutating func verify() throws {
        let seed = self.seed
        let copies = self.copies
        // The mount merges the conflict copies it finds (some may have been mid-merge at a kill).
        let merged = eventually(within: 20) {
            copies.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) }
        }
        for copy in copies where FileManager.default.fileExists(atPath: copy.path) {
            #expect(try Fixtures.contents(ofFileAtPath: copy.path) == copy.bytes, "seed \(seed): \(copy.path) changed")
        }
        #expect(merged, "seed \(seed): conflict copies left")
        #expect(try Shell.run("find '\(mounted.mountPoint)' -name '*.tmp'").output.isEmpty, "seed \(seed): temporary files show")
        #expect(try Shell.run("ls -R '\(mounted.mountPoint)' > /dev/null").status == 0, "seed \(seed): the mount cannot be listed")
        #expect(mounted.unmount() == 0, "seed \(seed): unmounting failed")
        // A save cut short by the kill leaves its temporary file half-written; the next mount clears this
        // machine's at once, and one that does not load goes to the quarantine, never deleted (SPEC 5a).
        // Nothing else may be there: no document, no conflict copy.
        let quarantined = (try? FileManager.default.contentsOfDirectory(atPath: store + "/.minutafs-quarantine")) ?? []
        for name in quarantined {
            // The quarantine names a file by its path, folders joined with "__" (and ".N" when taken).
            let original = name.components(separatedBy: "__").last ?? name
            let unnumbered = original.replacing(#/\.[0-9]+$/#, with: "")
            #expect(TemporaryFileName.parse(original)?.isOwnMachine == true || TemporaryFileName.parse(unnumbered)?.isOwnMachine == true,
                    "seed \(seed): \(name) was quarantined")
        }

        // Every document loads.
        let documents = try Shell.run("find '\(store)' -name '*.automerge'").output.split(separator: "\n")
        for document in documents {
            #expect(throws: Never.self, "seed \(seed): \(document)") { _ = try Document.load(Fixtures.contents(ofFileAtPath: String(document))) }
        }

        // Where every record is now, by id.
        let reopened = try Store(folder: FilePath(store), timeZone: .utc)
        var found: [String: [(month: Month, object: NSDictionary)]] = [:]
        for month in try reopened.months() {
            for file in try reopened.recordFiles(in: month) {
                found[file.id, default: []].append((month, try Self.object(file.contents)))
            }
        }
        for record in records.values.sorted(by: { $0.id < $1.id }) {
            let places = found[record.id] ?? []
            if !record.isFrozen {
                let expected = try #require(record.possible[0])
                #expect(places.count == 1, "seed \(seed): \(record.id) is in \(places.map(\.month))")
                #expect(places.first?.month == record.month, "seed \(seed): \(record.id) in \(places.map(\.month)), not \(record.month)")
                #expect(places.first?.object == expected, "seed \(seed): \(record.id): \(places.first?.object ?? [:]) is not \(expected)")
                for (name, bytes) in record.images {
                    #expect((try? Fixtures.contents(ofFileAtPath: store + "/" + record.month.folderPath + "/" + name)) == bytes, "seed \(seed): image \(name)")
                }
                for name in (places.first?.object["images"] as? [String]) ?? [] {
                    #expect(FileManager.default.fileExists(atPath: store + "/" + record.month.folderPath + "/" + name), "seed \(seed): image \(name) listed, not there")
                }
            } else if places.isEmpty {
                #expect(record.possible.contains(nil), "seed \(seed): \(record.id) is gone, but it was confirmed")
            } else {
                // A move cut short by a kill left the record in both months (never in neither); the
                // next mount finished it from its journal, so it is in one.
                #expect(places.count == 1, "seed \(seed): \(record.id) is in \(places.map(\.month))")
                for place in places {
                    #expect(record.possible.contains { $0 == place.object }, "seed \(seed): \(record.id): \(place.object) was never written")
                }
            }
        }
        for copy in copies {
            #expect(found[copy.recordID]?.count == 1, "seed \(seed): the conflict copy's record \(copy.recordID) is not there once")
        }
        let doubled = records.values.filter { (found[$0.id]?.count ?? 0) > 1 }.count
        print("crash run, seed \(seed): \(editCount) edits, \(kills) kills, \(confirmed) confirmed, \(unknown) unknown, \(copies.count) conflict copies, \(doubled) records left in two months by a move cut short")
        #expect(kills == killPoints.count, "seed \(seed): \(kills) kills")
        #expect(confirmed > editCount / 2, "seed \(seed): only \(confirmed) of \(editCount) edits were confirmed")
    }
}

/// What the test knows of one record.
struct TrackedRecord {
    var id: String
    var month: Month
    /// The name the mount shows it as.
    var name: String
    /// The last confirmed JSON object first (nil: not there), then objects an edit whose outcome
    /// is unknown may have left instead.
    var possible: [NSDictionary?]
    /// Images confirmed in its month folder: name to bytes.
    var images: [String: [UInt8]]
    /// After an edit with an unknown outcome: not edited again, checked against `possible`.
    var isFrozen = false
    /// A record of the sample store or of a conflict copy (never moved).
    var isSample = false
}

/// Sends SIGKILL to the mount after a random delay, from a thread of its own.
final class Killer: Sendable {
    private struct State {
        var fired = false
        var pending = 0
    }
    private let state = Mutex(State())

    var fired: Bool { state.withLock { $0.fired } }

    func schedule(pid: Int32, within microseconds: UInt32, using random: inout SeededGenerator) {
        let delay = UInt32.random(in: 0...microseconds, using: &random)
        state.withLock { $0.pending += 1 }
        Thread.detachNewThread { [self] in
            usleep(delay)
            state.withLock { $0.fired = true }
            kill(pid, SIGKILL)
            state.withLock { $0.pending -= 1 }
        }
    }

    func waitForPending() {
        while state.withLock({ $0.pending > 0 }) { usleep(1_000) }
    }

    func reset() {
        waitForPending()
        state.withLock { $0.fired = false }
    }
}
