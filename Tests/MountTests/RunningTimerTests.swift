import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// Every running timer is seen, however old and wherever held (a waiting conflict copy), and a start
/// through a mount is one action of the mount: two at once leave one timer running (SPEC 10).
@Suite(.serialized) struct RunningTimerTests {
    static func minutafs(_ arguments: [String], state: String) throws -> CommandResult {
        try MinutafsBinary.run(arguments, environment: ["XDG_STATE_HOME": state])
    }

    @Test("a timer started in 1999 is seen by now and stop, named with its age, and stopped only by id with --at")
    func oldTimer() throws {
        try withTemporaryDirectory { folder in
            let store = try StoreFixture.copy(into: folder)
            let state = folder + "/state"
            #expect(try Self.minutafs(["stop", "--at", "2025-01-01T00:00", store], state: state).status == 0)
            // --keep: a start in 1999 overlaps every record since (refused otherwise, SPEC 10); a forgotten
            // timer from another device is alike.
            let started = try Self.minutafs(["start", "--at", "1999-01-01T00:00", "--keep", "--comment", "forgotten", store], state: state)
            #expect(started.status == 0, "\(started.errorText)")
            let stop = try Self.minutafs(["stop", store], state: state)
            #expect(stop.status == 1, "\(stop.outputText)")
            #expect(!stop.errorText.contains("no timer is running"), "\(stop.errorText)")
            #expect(stop.errorText.contains("1999-01-01 00:00") && stop.errorText.contains(" y ") && stop.errorText.contains("stop --id")
                    && stop.errorText.contains("--at TIME"), "\(stop.errorText)")
            let now = try Self.minutafs(["now", store], state: state)
            #expect(now.status == 0 && now.outputText.contains("forgotten") && now.outputText.contains("running 2"), "\(now.outputText)")
            // A later start leaves it running (stopping it now would make a record of decades), and says so.
            let later = try Self.minutafs(["start", "--comment", "today", store], state: state)
            #expect(later.status == 0 && !later.outputText.contains("stopped") && later.errorText.contains("1999-01-01 00:00"), "\(later.outputText)\(later.errorText)")
            let id = try #require(TimerCommandTests.records(commented: "forgotten", in: store).first?["id"] as? String)
            let byID = try Self.minutafs(["stop", "--id", id, "--at", "1999-01-01T08:00", store], state: state)
            #expect(byID.status == 0 && byID.outputText.contains("stopped (no tag): forgotten") && byID.outputText.contains("after 8:00"),
                    "\(byID.outputText)\(byID.errorText)")
            let ended = try #require(TimerCommandTests.records(commented: "forgotten", in: store).first)
            #expect(ended["endTime"] as? String == "1999-01-01T08:00:00Z")
            let rest = try Self.minutafs(["now", "--format", "%c", store], state: state)
            #expect(rest.outputText == "today\n", "\(rest.outputText)")
            // The index is kept in the state folder, never in the synced folder.
            let kept = try FileManager.default.contentsOfDirectory(atPath: state + "/minutafs")
            #expect(kept.contains { $0.hasPrefix("running-timers-") }, "\(kept)")
            #expect(try Shell.run("find '\(store)' -name 'running-timers-*' | grep -q .").status == 1)
        }
    }

    @Test("unmounted, a running timer in a waiting conflict copy is seen by now and stopped by start")
    func timerInConflictCopy() throws {
        try withTemporaryDirectory { folder in
            let store = try StoreFixture.copy(into: folder)
            let state = folder + "/state"
            #expect(try Self.minutafs(["stop", "--at", "2025-01-01T00:00", store], state: state).status == 0)
            // This month's document, then the phone's copy of it with a timer started there.
            #expect(try Self.minutafs(["start", "--at", "-2h", "--comment", "laptop", store], state: state).status == 0)
            #expect(try Self.minutafs(["stop", "--at", "-1h", store], state: state).status == 0)
            let laptop = try #require(TimerCommandTests.records(commented: "laptop", in: store).first)
            let monthPath = try #require(laptop["_month"] as? String)
            let month = try #require(Month(yearSlashMonth: monthPath))
            let phone = folder + "/phone"
            try FileManager.default.createDirectory(atPath: phone + "/records/" + month.yearName, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: store + "/" + month.documentPath, toPath: phone + "/" + month.documentPath)
            let phoneStore = try Store(folder: FilePath(phone), timeZone: .utc)
            let start = ISO8601.string(milliseconds: Int64(Date().timeIntervalSince1970 * 1000) - 600_000)
            _ = try phoneStore.writeRecordFile(Array("{\"startTime\": \"\(start)\", \"comment\": \"from the phone\", \"images\": []}".utf8),
                                               named: "new.json", in: month)
            try FileManager.default.copyItem(
                atPath: phone + "/" + month.documentPath,
                toPath: store + "/records/" + month.yearName + "/" + month.monthName + " (Phone's conflicted copy 2026-11-26).automerge")
            let now = try Self.minutafs(["now", "--format", "%c", store], state: state)
            #expect(now.status == 0 && now.outputText == "from the phone\n", "\(now.outputText)\(now.errorText)")
            let started = try Self.minutafs(["start", "--comment", "on the laptop again", store], state: state)
            #expect(started.status == 0 && started.outputText.contains("stopped (no tag): from the phone"), "\(started.outputText)\(started.errorText)")
            let after = try Self.minutafs(["now", "--format", "%c", store], state: state)
            #expect(after.outputText == "on the laptop again\n", "\(after.outputText)\(after.errorText)")
        }
    }

    @Test("through a mount, rm of a running timer's record file shows in now.txt and now.json at once; a save at its path brings it back")
    func removedRecordFile() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            defer { _ = mounted.unmount() }
            let state = folder + "/state"
            let point = mounted.mountPoint
            #expect(try Self.minutafs(["stop", "--at", "2025-01-01T00:00", point], state: state).status == 0)
            #expect(try Self.minutafs(["start", "--comment", "remove me", point], state: state).status == 0)
            #expect(try mounted.text(point + "/.minutafs/now.txt").contains("remove me"))
            let file = try #require(try Self.recordFile(commented: "remove me", under: point + "/records"))
            let contents = try Fixtures.contents(ofFileAtPath: file)
            // The removal is carried out after its grace period (an editor may save the file again), but
            // the file is gone for every program at once, the status bar's files included.
            #expect(unlink(file) == 0)
            #expect(try mounted.text(point + "/.minutafs/now.txt") == "", "now.txt shows no timer at once")
            let json = try mounted.text(point + "/.minutafs/now.json")
            #expect(json.contains("\"class\": \"idle\"") || json.contains("\"class\":\"idle\""), "\(json)")
            #expect(try Self.minutafs(["now", point], state: state).status == 1, "now says none runs")
            // Saved again at its path before the grace period ends (an editor's save by unlink and create):
            // the record stays, and runs again.
            #expect(FileManager.default.createFile(atPath: file, contents: Data(contents)))
            #expect(try mounted.text(point + "/.minutafs/now.txt").contains("remove me"), "the record is back")
        }
    }

    /// The record file under `records` (a mount's) whose comment is `comment`.
    static func recordFile(commented comment: String, under records: String) throws -> String? {
        for year in try FileManager.default.contentsOfDirectory(atPath: records).sorted() {
            for month in try FileManager.default.contentsOfDirectory(atPath: records + "/" + year).sorted() {
                let folder = records + "/" + year + "/" + month
                for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".json") {
                    let text = String(decoding: try Fixtures.contents(ofFileAtPath: folder + "/" + name), as: UTF8.self)
                    if text.contains("\"comment\" : \"\(comment)\"") || text.contains("\"comment\": \"\(comment)\"") { return folder + "/" + name }
                }
            }
        }
        return nil
    }

    @Test("through a mount, two starts at once leave one timer running, each saying only what it stopped (10 tries)")
    func concurrentStarts() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let state = folder + "/state"
            #expect(try Self.minutafs(["stop", "--at", "2025-01-01T00:00", mounted.mountPoint], state: state).status == 0)
            let binary = try MinutafsBinary.path()
            var previous: Set<String> = []
            for round in 0..<10 {
                let script = """
                    '\(binary)' start --comment a\(round) '\(mounted.mountPoint)' > '\(folder)/a' 2>&1 & a=$!
                    '\(binary)' start --comment b\(round) '\(mounted.mountPoint)' > '\(folder)/b' 2>&1 & b=$!
                    wait $a; sa=$?; wait $b; sb=$?
                    echo "status $sa $sb"; cat '\(folder)/a' '\(folder)/b'
                    """
                let both = try Shell.run(script)
                #expect(both.output.contains("status 0 0"), "\(both.output)")
                let running = try mounted.text(mounted.mountPoint + "/.minutafs/now.txt")
                let lines = running.split(separator: "\n")
                #expect(lines.count == 1, "round \(round): \(running)")
                // Each timer stopped is named by exactly one of the two starts: the other round's, and the first of this pair.
                let stoppedLines = both.output.split(separator: "\n").filter { $0.hasPrefix("stopped") }
                let stoppedComments = stoppedLines.map { line in String(line.dropFirst("stopped (no tag): ".count).prefix { $0 != " " }) }
                #expect(Set(stoppedComments).count == stoppedComments.count, "round \(round): \(both.output)")
                let this: Set<String> = ["a\(round)", "b\(round)"]
                let shown = lines.first.map { String($0.dropFirst("(no tag): ".count).prefix { $0 != " " }) } ?? ""
                #expect(this.contains(shown), "\(running)")
                #expect(Set(stoppedComments) == previous.union(this.subtracting([shown])), "round \(round): \(both.output)")
                previous = [shown]
            }
            // now.json holds what `now --json` prints, and follows the change at once.
            let json = try mounted.text(mounted.mountPoint + "/.minutafs/now.json")
            let printed = try Self.minutafs(["now", "--json", "--all-months", mounted.mountPoint], state: state)
            #expect(printed.outputText == json, "\(json)\n\(printed.outputText)")
            #expect(try Self.minutafs(["stop", mounted.mountPoint], state: state).status == 0)
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/now.txt") == "")
            #expect(mounted.unmount() == 0)
            var runningInStore = 0
            let opened = try Store(folder: FilePath(mounted.store), timeZone: .utc)
            for month in try opened.months() {
                for file in try opened.recordFiles(in: month) where !String(decoding: file.contents, as: UTF8.self).contains("endTime") {
                    runningInStore += 1
                }
            }
            #expect(runningInStore == 0)
        }
    }

    @Test("mounted, now.txt and now.json follow a phone's timer arriving in a conflict copy, without a command")
    func nowFileFollowsMerges() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let state = folder + "/state"
            #expect(try Self.minutafs(["stop", "--at", "2025-01-01T00:00", mounted.mountPoint], state: state).status == 0)
            #expect(try Self.minutafs(["start", "--at", "-2h", "--comment", "laptop", mounted.mountPoint], state: state).status == 0)
            #expect(try Self.minutafs(["stop", "--at", "-1h", mounted.mountPoint], state: state).status == 0)
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/now.txt") == "")
            let laptop = try #require(TimerCommandTests.records(commented: "laptop", in: mounted.store).first)
            let monthPath = try #require(laptop["_month"] as? String)
            let month = try #require(Month(yearSlashMonth: monthPath))
            let phone = folder + "/phone"
            try FileManager.default.createDirectory(atPath: phone + "/records/" + month.yearName, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: mounted.store + "/" + month.documentPath, toPath: phone + "/" + month.documentPath)
            let phoneStore = try Store(folder: FilePath(phone), timeZone: .utc)
            let start = ISO8601.string(milliseconds: Int64(Date().timeIntervalSince1970 * 1000) - 600_000)
            _ = try phoneStore.writeRecordFile(Array("{\"startTime\": \"\(start)\", \"comment\": \"from the phone\", \"images\": []}".utf8),
                                               named: "new.json", in: month)
            try FileManager.default.copyItem(
                atPath: phone + "/" + month.documentPath,
                toPath: mounted.store + "/records/" + month.yearName + "/" + month.monthName + " (Phone's conflicted copy 2026-11-26).automerge")
            let shown = eventually(within: 10) {
                ((try? mounted.text(mounted.mountPoint + "/.minutafs/now.txt")) ?? "").contains("from the phone")
            }
            #expect(shown, "\((try? mounted.text(mounted.mountPoint + "/.minutafs/now.txt")) ?? "")")
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/now.json").contains("from the phone"))
            let printed = try Self.minutafs(["now", mounted.mountPoint], state: state)
            let file = try mounted.text(mounted.mountPoint + "/.minutafs/now.txt")
            #expect(printed.status == 0 && printed.outputText == file, "\(printed.outputText)\(file)")
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("mounted, now.txt and now.json follow the clock: the time so far moves at the next minute without a command, and every read is whole")
    func nowFileFollowsTheClock() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let state = folder + "/state"
            #expect(try Self.minutafs(["stop", "--at", "2025-01-01T00:00", mounted.mountPoint], state: state).status == 0)
            // Started at the start of this minute (the store's time zone is UTC): its time so far moves
            // when the clock's minute does.
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
            let started = try Self.minutafs(["start", "--at", formatter.string(from: Date()), "--keep", "--comment", "ticking", mounted.mountPoint], state: state)
            #expect(started.status == 0, "\(started.errorText)")
            let first = try mounted.text(mounted.mountPoint + "/.minutafs/now.txt")
            #expect(first.contains("ticking"), "\(first)")
            var reads = 0
            var broken: [String] = []
            // Read as a status bar does, again and again, until the minute turns (at most 60 s, then the
            // rendering of the new minute): each read of now.json is one whole JSON object.
            let moved = try eventually(within: 75, every: 0.05) {
                let json = try Fixtures.contents(ofFileAtPath: mounted.mountPoint + "/.minutafs/now.json")
                reads += 1
                if (try? JSONSerialization.jsonObject(with: Data(json))) == nil { broken.append(String(decoding: json, as: UTF8.self)) }
                return try mounted.text(mounted.mountPoint + "/.minutafs/now.txt") != first
            }
            #expect(moved, "now.txt still says \(first) after 75 s")
            #expect(broken.isEmpty, "\(broken.count) of \(reads) reads of now.json were not whole: \(broken.prefix(3))")
            let later = try mounted.text(mounted.mountPoint + "/.minutafs/now.txt")
            let printed = try Self.minutafs(["now", "--all-months", mounted.mountPoint], state: state)
            #expect(later.contains("ticking") && printed.outputText == later, "file: \(later) computed: \(printed.outputText)")
            // A change of another size is read whole at once: neither cut at the old size nor padded to it.
            let comment = String(repeating: "a much longer comment ", count: 20)
            #expect(try Self.minutafs(["annotate", comment, mounted.mountPoint], state: state).status == 0)
            let json = try Fixtures.contents(ofFileAtPath: mounted.mountPoint + "/.minutafs/now.json")
            let object = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any]
            #expect((object?["tooltip"] as? String)?.contains(comment.trimmingCharacters(in: .whitespaces)) == true, "\(String(decoding: json, as: UTF8.self))")
            #expect(mounted.unmount() == 0)
        }
    }
}
