import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// `minutafs start`, `stop`, `now` and `continue` (SPEC 10) on a store, on its mount, and by the store's
/// path while it is mounted (then through the mount: the store's lock is held by the mount, so a direct
/// write would be refused), across midnight and a month's end in two time zones, with another device's
/// concurrent stop, tags by name and id, and no timer running.
@Suite(.serialized) struct TimerCommandTests {
    static let commute = "7993C5A5-14D0-4821-B976-E95BFDEB18D8"
    static let meeting = "3499450C-7F1D-41E0-9E00-4A6CAE04BC6F"  // archived

    static func minutafs(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try MinutafsBinary.run(arguments, environment: environment)
    }

    /// Ends the sample store's own timers (five, all started in 2024: `now` shows them, and `stop`
    /// leaves them running unless told when they ended).
    static func endSampleTimers(_ path: String) throws {
        let ended = try minutafs(["stop", "--at", "2025-01-01T00:00", path])
        #expect(ended.status == 0 && ended.outputText.contains("5 timers were running"), "\(ended.outputText)\(ended.errorText)")
    }

    /// Every record of the store (read with the store library) whose comment is `comment`.
    static func records(commented comment: String, in store: String, timeZone: StoreTimeZone = .utc) throws -> [[String: Any]] {
        let opened = try Store(folder: FilePath(store), timeZone: timeZone)
        var found: [[String: Any]] = []
        for month in try opened.months() {
            for file in try opened.recordFiles(in: month) {
                guard let object = try JSONSerialization.jsonObject(with: Data(file.contents)) as? [String: Any],
                      object["comment"] as? String == comment else { continue }
                var tagged = object
                tagged["_month"] = month.yearSlashMonth
                tagged["_name"] = file.name
                found.append(tagged)
            }
        }
        return found
    }

    @Test("on a store that is not mounted: start, now, start again (the first stops), stop; nothing runs after")
    func onStore() throws {
        try withTemporaryDirectory { folder in
            let store = try StoreFixture.copy(into: folder)
            try Self.endSampleTimers(store)
            let started = try Self.minutafs(["start", "--tag", "commute", "--comment", "first", "--at", "-30m", store])
            #expect(started.status == 0, "\(started.errorText)")
            #expect(started.outputText.contains("started Commute: first"))
            let now = try Self.minutafs(["now", store])
            #expect(now.status == 0 && now.outputText.hasPrefix("Commute: first 0:3"), "\(now.outputText)\(now.errorText)")
            let second = try Self.minutafs(["start", "--tag", Self.commute.lowercased(), "--comment", "second", store])
            #expect(second.status == 0 && second.outputText.contains("stopped Commute: first after 0:3"), "\(second.outputText)\(second.errorText)")
            let first = try #require(try Self.records(commented: "first", in: store).first)
            let secondRecord = try #require(try Self.records(commented: "second", in: store).first)
            #expect(first["endTime"] as? String == secondRecord["startTime"] as? String, "stopped at the same instant")
            #expect(secondRecord["tagId"] as? String == Self.commute)
            let stopped = try Self.minutafs(["stop", store])
            #expect(stopped.status == 0 && stopped.outputText.contains("stopped Commute: second"), "\(stopped.outputText)")
            let idle = try Self.minutafs(["now", store])
            #expect(idle.status == 1 && idle.standardOutput.isEmpty)
            let json = try Self.minutafs(["now", "--json", store])
            #expect(json.status == 0 && json.outputText == #"{"text": "", "alt": "idle", "tooltip": "no timer running", "class": "idle", "percentage": 0}"# + "\n")
            let nothing = try Self.minutafs(["stop", store])
            #expect(nothing.status == 1 && nothing.errorText.contains("no timer is running"), "\(nothing.errorText)")
            // continue: the last timer's tag and comment again.
            let again = try Self.minutafs(["continue", store])
            #expect(again.status == 0 && again.outputText.contains("started Commute: second"), "\(again.outputText)\(again.errorText)")
            #expect(try Self.records(commented: "second", in: store).count == 2)
        }
    }

    @Test("on the mount and by the store's path while mounted: through the mount, shown at once")
    func throughMount() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            try Self.endSampleTimers(mounted.mountPoint)
            let started = try Self.minutafs(["start", "--tag", "Commute", "--comment", "from the terminal", mounted.mountPoint])
            #expect(started.status == 0, "\(started.errorText)")
            // Shown in the mount at once, in the month of its start.
            let found = try Shell.run("grep -l 'from the terminal' '\(mounted.mountPoint)'/records/*/*/*.json")
            #expect(found.status == 0, "\(found.output)")
            // By the store's path: the mount holds the store's lock, so only the mount can have written this.
            let byStore = try Self.minutafs(["start", "--comment", "by the store path", "--keep", mounted.store])
            #expect(byStore.status == 0, "\(byStore.errorText)")
            #expect(byStore.outputText.contains("in the mount at \(mounted.mountPoint)"), "\(byStore.outputText)")
            let now = try Self.minutafs(["now", "--format", "%t|%c|%e", mounted.store])
            #expect(now.status == 0)
            #expect(now.outputText == "(no tag)|by the store path|0:00 +1\n", "the newest, one line: \(now.outputText)")
            let stopped = try Self.minutafs(["stop", mounted.mountPoint + "/records"])
            #expect(stopped.status == 0 && stopped.outputText.contains("2 timers were running"), "\(stopped.outputText)\(stopped.errorText)")
            #expect(try Self.minutafs(["now", mounted.mountPoint]).status == 1)
            #expect(mounted.unmount() == 0)
            // What the mount wrote is in the documents: two ended records.
            let ended = try Self.records(commented: "from the terminal", in: mounted.store)
            #expect(ended.count == 1 && ended.first?["endTime"] != nil)
        }
    }

    @Test("across midnight and a month's end: filed by the start in the store's time zone", arguments: [
        ("Europe/Berlin", "2025-01-31T23:30", "2025-01-31T22:30:00Z", "2025/01", "2025-01-31_233000.json"),
        ("America/New_York", "2025-01-31T23:30", "2025-02-01T04:30:00Z", "2025/01", "2025-01-31_233000.json"),
    ])
    func acrossMonthEnd(_ zone: String, _ start: String, _ startUTC: String, _ month: String, _ name: String) throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder, timeZone: zone)
            // The sample store's own running timer (2024) is stopped first: an old timer that started
            // after the --at below would make that stop refuse.
            try Self.endSampleTimers(mounted.mountPoint)
            let comment = "late in " + zone
            let started = try Self.minutafs(["start", "--at", start, "--comment", comment, mounted.mountPoint])
            #expect(started.status == 0, "\(started.errorText)")
            let file = mounted.mountPoint + "/records/" + month + "/" + name
            #expect(try mounted.text(file).contains("\"startTime\": \"\(startUTC)\""), "not filed as \(file)")
            // An old timer is seen, and left running unless told when it ended; it is stopped after midnight, in February.
            let refused = try Self.minutafs(["stop", mounted.mountPoint])
            #expect(refused.status == 1 && refused.errorText.contains("--at TIME"), "\(refused.errorText)")
            let stopped = try Self.minutafs(["stop", "--at", "2025-02-01T01:15", mounted.mountPoint])
            #expect(stopped.status == 0 && stopped.outputText.contains("after 1:45"), "\(stopped.outputText)\(stopped.errorText)")
            let text = try mounted.text(file)
            #expect(text.contains("\"endTime\""), "the record stays in \(month), named by its start")
            let early = try Self.minutafs(["stop", "--at", "2025-01-31T23:00", mounted.mountPoint])
            #expect(early.status == 1, "nothing runs any more")
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("another device's concurrent stop of the same timer: both ends kept, one shown, the other in .minutafs/conflicts")
    func concurrentStop() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            try Self.endSampleTimers(mounted.mountPoint)
            let started = try Self.minutafs(["start", "--comment", "both stop it", "--at", "-1h", mounted.mountPoint])
            #expect(started.status == 0, "\(started.errorText)")
            let record = try #require(try Self.records(commented: "both stop it", in: mounted.store).first)
            let monthPath = try #require(record["_month"] as? String)
            let name = try #require(record["_name"] as? String)
            // The phone has the document with the running timer and stops it at its own time.
            let phone = folder + "/phone"
            try FileManager.default.createDirectory(atPath: phone + "/records/" + monthPath.prefix(4), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: mounted.store + "/records/" + monthPath + ".automerge", toPath: phone + "/records/" + monthPath + ".automerge")
            let phoneStore = try Store(folder: FilePath(phone), timeZone: .utc)
            let month = try #require(Month(yearSlashMonth: monthPath))
            let phoneFile = try #require(try phoneStore.recordFiles(in: month).first { $0.name == name })
            let phoneEnd = ISO8601.string(milliseconds: Int64(Date().timeIntervalSince1970 * 1000) - 600_000)
            let phoneText = String(decoding: phoneFile.contents, as: UTF8.self)
                .replacingOccurrences(of: "\"images\"", with: "\"endTime\": \"\(phoneEnd)\",\n  \"images\"")
            _ = try phoneStore.writeRecordFile(Array(phoneText.utf8), named: name, in: month)
            // The laptop stops it through the mount; then the phone's version arrives as a conflict copy.
            #expect(try Self.minutafs(["stop", mounted.mountPoint]).status == 0)
            try FileManager.default.copyItem(
                atPath: phone + "/records/" + monthPath + ".automerge",
                toPath: mounted.store + "/records/" + monthPath.prefix(4) + "/" + monthPath.suffix(2) + " (Phone's conflicted copy 2024-11-26).automerge")
            let listed = eventually(within: 10) {
                ((try? mounted.text(mounted.mountPoint + "/.minutafs/conflicts")) ?? "").contains("endTime")
            }
            let conflicts = try mounted.text(mounted.mountPoint + "/.minutafs/conflicts")
            #expect(listed, "\(conflicts)")
            let shown = try mounted.text(mounted.mountPoint + "/records/" + monthPath + "/" + name)
            let shownEnd = try #require((try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])?["endTime"] as? String)
            // One line names both ends, as the record file shows dates: the one shown and the other.
            let line = try #require(conflicts.split(separator: "\n").first { $0.contains("endTime") }.map(String.init))
            let phoneMilliseconds = try #require(ISO8601.milliseconds(from: phoneEnd))
            #expect(line.contains("\"\(shownEnd)\"") && line.contains("\"\(ISO8601.string(milliseconds: phoneMilliseconds))\""), "\(line)")
            #expect(!line.contains("_ts"), "\(line)")
            #expect(try Self.minutafs(["now", mounted.mountPoint]).status == 1)
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("tags by name or id; an archived tag by its name with --archived; an unknown id and ambiguous names list the candidates, changing nothing")
    func tags() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            // A second, unarchived "Yoga" makes the name ambiguous.
            let tagsPath = mounted.mountPoint + "/tags.json"
            let tags = try mounted.text(tagsPath)
            let added = tags.replacingOccurrences(of: "\"tags\": [", with: "\"tags\": [\n    {\"name\": \"yoga\", \"color\": \"#123456\", \"isArchived\": false},")
            #expect(BadInputMountTests.save(Array(added.utf8), to: tagsPath) == (0, ""))
            let before = try folderSnapshot(mounted.store)
            let ambiguous = try Self.minutafs(["start", "--tag", "YOGA", mounted.mountPoint])
            #expect(ambiguous.status == 1 && ambiguous.errorText.contains("several tags are named \"YOGA\"")
                    && ambiguous.errorText.contains("6AEAB6BD-E6DD-4A65-B4BC-483D0459ABE6"), "\(ambiguous.errorText)")
            let unknownID = try Self.minutafs(["start", "--tag", "00000000-0000-4000-8000-000000000000", mounted.mountPoint])
            #expect(unknownID.status == 1 && unknownID.errorText.contains("no tag named") && unknownID.errorText.contains("Commute"), "\(unknownID.errorText)")
            let badTime = try Self.minutafs(["start", "--at", "tomorrow", mounted.mountPoint])
            #expect(badTime.status == 1 && badTime.errorText.contains("HH:MM"), "\(badTime.errorText)")
            #expect(try folderSnapshot(mounted.store) == before, "a refused start changes nothing")
            let byID = try Self.minutafs(["start", "--tag", "6AEAB6BD-E6DD-4A65-B4BC-483D0459ABE6", "--comment", "by id", mounted.mountPoint])
            #expect(byID.status == 0 && byID.outputText.contains("started Yoga: by id"), "\(byID.outputText)\(byID.errorText)")
            // An archived tag is named as archived, and used only with --archived.
            let refused = try Self.minutafs(["start", "--tag", "meeting", "--comment", "archived tag", mounted.mountPoint])
            #expect(refused.status == 1 && refused.errorText.contains("\"Meeting\" (\(Self.meeting)) is archived; give --archived"), "\(refused.errorText)")
            let archived = try Self.minutafs(["start", "--tag", "meeting", "--archived", "--comment", "archived tag", mounted.mountPoint])
            #expect(archived.status == 0 && archived.outputText.contains("started Meeting: archived tag"), "\(archived.outputText)\(archived.errorText)")
            #expect(mounted.unmount() == 0)
            #expect(try Self.records(commented: "archived tag", in: mounted.store).first?["tagId"] as? String == Self.meeting)
        }
    }

    @Test("the default store: MINUTAFS_STORE, else `store = PATH` in the config file; none names what to do")
    func defaultStore() throws {
        try withTemporaryDirectory { folder in
            let store = try StoreFixture.copy(into: folder)
            let config = folder + "/config"
            try FileManager.default.createDirectory(atPath: config + "/minutafs", withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: config + "/minutafs/config", contents: Data("# mine\nstore = \(store)\n".utf8)))
            let byConfig = try Self.minutafs(["start", "--comment", "configured"], environment: ["XDG_CONFIG_HOME": config, "MINUTAFS_STORE": ""])
            #expect(byConfig.status == 0, "\(byConfig.errorText)")
            let byVariable = try Self.minutafs(["now"], environment: ["MINUTAFS_STORE": store, "XDG_CONFIG_HOME": folder + "/none"])
            #expect(byVariable.status == 0 && byVariable.outputText.contains("configured"), "\(byVariable.errorText)")
            let none = try Self.minutafs(["now"], environment: ["MINUTAFS_STORE": "", "XDG_CONFIG_HOME": folder + "/none"])
            #expect(none.status == 1 && none.errorText.contains("MINUTAFS_STORE") && none.errorText.contains("config"), "\(none.errorText)")
        }
    }
}

/// Copies of the sample store for the timer tests.
enum StoreFixture {
    static func copy(into folder: String) throws -> String {
        let store = folder + "/store"
        try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
        #expect(try Shell.run("chmod -R u+w '\(store)'").status == 0)
        return store
    }
}
