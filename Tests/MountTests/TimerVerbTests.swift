import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// Timewarrior's everyday verbs (SPEC 10): `track`, `cancel`, `annotate`, `summary`,
/// `undo`; overlaps refused naming the record unless `--adjust`; an unknown tag created with a palette
/// color; on a store that is not mounted and through a mount.
@Suite(.serialized) struct TimerVerbTests {
    /// The commands, with the undo journal in `folder/state`, never the user's.
    static func minutafs(_ arguments: [String], state folder: String) throws -> CommandResult {
        try MinutafsBinary.run(arguments, environment: ["XDG_STATE_HOME": folder + "/state", "TZ": "UTC"])
    }

    /// The records commented `comment`: read through the mount's files when mounted (the mount saves
    /// its documents later), else from the store.
    static func records(commented comment: String, place: String, store: String, mounted: Bool) throws -> [[String: Any]] {
        guard mounted else { return try TimerCommandTests.records(commented: comment, in: store) }
        var found: [[String: Any]] = []
        let records = place + "/records"
        for year in try FileManager.default.contentsOfDirectory(atPath: records) {
            for month in try FileManager.default.contentsOfDirectory(atPath: records + "/" + year) {
                let folder = records + "/" + year + "/" + month
                for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".json") {
                    guard let data = FileManager.default.contents(atPath: folder + "/" + name),
                          let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                          object["comment"] as? String == comment else { continue }
                    found.append(object)
                }
            }
        }
        return found
    }

    /// The store (not mounted) or its mount, with `body` given the path the commands take.
    static func withPlace(mounted: Bool, _ body: (_ folder: String, _ place: String, _ store: String) throws -> Void) throws {
        try withTemporaryDirectory { folder in
            if mounted {
                let mount = try MountedStore(in: folder)
                try body(folder, mount.mountPoint, mount.store)
                #expect(mount.unmount() == 0)
            } else {
                let store = try StoreFixture.copy(into: folder)
                try body(folder, store, store)
            }
        }
    }

    @Test("track, annotate, cancel, undo and summary, with and without a mount", arguments: [false, true])
    func verbs(mounted: Bool) throws {
        try Self.withPlace(mounted: mounted) { folder, place, store in
            func run(_ arguments: [String]) throws -> CommandResult {
                try Self.minutafs(arguments + (mounted ? [] : ["--timezone", "UTC"]) + [place], state: folder)
            }
            // The sample store's own timers (2024) are ended first: every running timer is seen, however
            // old, and `cancel` without --id would name them all.
            let ended = try run(["stop", "--at", "2025-01-01T00:00"])
            #expect(ended.status == 0 && ended.outputText.contains("5 timers were running"), "\(ended.outputText)\(ended.errorText)")
            // A past interval while a timer runs.
            let started = try run(["start", "--tag", "Commute", "--comment", "running"])
            #expect(started.status == 0, "\(started.errorText)")
            let tracked = try run(["track", "2020-01-10T09:00", "-", "2020-01-10T10:30", "--tag", "commute", "--comment", "tracked"])
            #expect(tracked.status == 0 && tracked.outputText.contains("tracked Commute: tracked from 2020-01-10 09:00 to 10:30 (1:30)"),
                    "\(tracked.outputText)\(tracked.errorText)")
            let record = try #require(try Self.records(commented: "tracked", place: place, store: store, mounted: mounted).first)
            #expect(record["startTime"] as? String == "2020-01-10T09:00:00Z" && record["endTime"] as? String == "2020-01-10T10:30:00Z")
            // Summary: the day's and week's hours, as report counts them.
            let summary = try run(["summary", "--day", "--date", "2020-01-10"])
            #expect(summary.status == 0 && summary.outputText.contains("2020-01-10 Fri 1:30  (Commute 1:30)")
                    && summary.outputText.contains("week of 2020-01-06: 1:30"), "\(summary.outputText)\(summary.errorText)")
            // Annotate: the running timer's comment.
            let annotated = try run(["annotate", "new words"])
            #expect(annotated.status == 0, "\(annotated.errorText)")
            #expect(try Self.records(commented: "new words", place: place, store: store, mounted: mounted).first?["endTime"] == nil)
            #expect(try Self.records(commented: "running", place: place, store: store, mounted: mounted).isEmpty)
            // Undo sets the comment back.
            let undone = try run(["undo"])
            #expect(undone.status == 0 && undone.outputText.contains("undid annotate"), "\(undone.outputText)\(undone.errorText)")
            #expect(try Self.records(commented: "running", place: place, store: store, mounted: mounted).count == 1)
            let nothing = try run(["undo"])
            #expect(nothing.status == 1 && nothing.errorText.contains("nothing to undo"), "\(nothing.errorText)")
            // Cancel removes the running timer; undo brings it back with its id.
            let id = try #require(try Self.records(commented: "running", place: place, store: store, mounted: mounted).first?["id"] as? String)
            let cancelled = try run(["cancel"])
            #expect(cancelled.status == 0 && cancelled.outputText.contains("cancelled Commute: running"), "\(cancelled.outputText)\(cancelled.errorText)")
            #expect(try Self.records(commented: "running", place: place, store: store, mounted: mounted).isEmpty)
            #expect(try run(["now"]).status == 1, "nothing runs after cancel")
            #expect(try run(["undo"]).status == 0)
            #expect(try Self.records(commented: "running", place: place, store: store, mounted: mounted).first?["id"] as? String == id)
            let again = try run(["cancel", "--id", id])
            #expect(again.status == 0, "\(again.errorText)")
            let none = try run(["cancel"])
            #expect(none.status == 1 && none.errorText.contains("no timer is running"), "\(none.errorText)")
            // Undo of track removes the record.
            #expect(try run(["track", "2020-01-11T09:00", "-", "2020-01-11T09:30", "--comment", "to undo"]).status == 0)
            #expect(try Self.records(commented: "to undo", place: place, store: store, mounted: mounted).count == 1)
            #expect(try run(["undo"]).status == 0)
            #expect(try Self.records(commented: "to undo", place: place, store: store, mounted: mounted).isEmpty)
        }
    }

    @Test("undo sets back through history: after start the stopped timer runs again, after stop it runs, a second undo has nothing, a record a phone changed since is left and said",
          arguments: [false, true])
    func undoThroughHistory(mounted: Bool) throws {
        try Self.withPlace(mounted: mounted) { folder, place, store in
            func run(_ arguments: [String]) throws -> CommandResult {
                try Self.minutafs(arguments + (mounted ? [] : ["--timezone", "UTC"]) + [place], state: folder)
            }
            func comments() throws -> String { try run(["now", "--format", "%c"]).outputText }
            #expect(try run(["stop", "--at", "2025-01-01T00:00"]).status == 0)
            #expect(try run(["start", "--comment", "first"]).status == 0)
            #expect(try run(["start", "--comment", "second"]).status == 0)
            #expect(try comments() == "second\n")
            // Undo of a start: the new timer is removed, the one it stopped runs again.
            let undone = try run(["undo"])
            #expect(undone.status == 0 && undone.outputText.contains("undid start") && undone.outputText.contains("removed ")
                    && undone.outputText.contains("set back "), "\(undone.outputText)\(undone.errorText)")
            #expect(try comments() == "first\n", "the stopped timer runs again, alone")
            #expect(try Self.records(commented: "second", place: place, store: store, mounted: mounted).isEmpty)
            #expect(try Self.records(commented: "first", place: place, store: store, mounted: mounted).first?["endTime"] == nil)
            // A second undo has nothing to undo, and changes nothing.
            let twice = try run(["undo"])
            #expect(twice.status == 1 && twice.errorText.contains("nothing to undo"), "\(twice.outputText)\(twice.errorText)")
            #expect(try comments() == "first\n")
            // Undo of a stop: the timer runs again.
            #expect(try run(["stop"]).status == 0)
            #expect(try run(["now"]).status == 1)
            let unstopped = try run(["undo"])
            #expect(unstopped.status == 0 && unstopped.outputText.contains("undid stop") && unstopped.outputText.contains("set back "),
                    "\(unstopped.outputText)\(unstopped.errorText)")
            #expect(try comments() == "first\n")
            // A stop, then a phone changes the comment of the record it stopped: undo leaves the record as
            // the phone left it (stopped, the phone's comment), and says so with exit status 1.
            #expect(try run(["stop"]).status == 0)
            let record = try #require(try Self.records(commented: "first", place: place, store: store, mounted: mounted).first)
            let id = try #require(record["id"] as? String)
            let end = try #require(record["endTime"] as? String)
            let start = try #require(record["startTime"] as? String)
            let month = try #require(Month(yearName: String(start.prefix(4)), monthName: String(start.dropFirst(5).prefix(2))))
            let phone = folder + "/phone"
            try FileManager.default.createDirectory(atPath: phone + "/records/" + month.yearName, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: store + "/" + month.documentPath, toPath: phone + "/" + month.documentPath)
            let phoneStore = try Store(folder: FilePath(phone), timeZone: .utc)
            let phoneFile = try #require(try phoneStore.recordFiles(in: month).first { String(decoding: $0.contents, as: UTF8.self).contains(id) })
            let phoneText = String(decoding: phoneFile.contents, as: UTF8.self).replacingOccurrences(of: "\"first\"", with: "\"phone words\"")
            _ = try phoneStore.writeRecordFile(Array(phoneText.utf8), named: phoneFile.name, in: month)
            // The sync tool delivers the phone's document.
            let delivered = store + "/" + month.documentPath + ".sync-tmp"
            try FileManager.default.copyItem(atPath: phone + "/" + month.documentPath, toPath: delivered)
            #expect(rename(delivered, store + "/" + month.documentPath) == 0)
            #expect(try eventually(within: 30) { try !Self.records(commented: "phone words", place: place, store: store, mounted: mounted).isEmpty },
                    "the phone's comment arrives")
            let refused = try run(["undo"])
            // Nothing was set back: no "undid" line says otherwise.
            #expect(refused.status == 1 && !refused.outputText.contains("undid") && refused.errorText.contains("nothing of stop was undone")
                    && refused.errorText.contains("left ") && refused.errorText.contains("changed since that command (comment)"),
                    "\(refused.outputText)\(refused.errorText)")
            let kept = try #require(try Self.records(commented: "phone words", place: place, store: store, mounted: mounted).first)
            #expect(kept["endTime"] as? String == end, "the stop the phone saw is kept: \(kept)")
            #expect(try run(["now"]).status == 1, "nothing runs")
        }
    }

    @Test("an overlap is refused naming the record, unless --adjust trims it (and undo sets it back)", arguments: [false, true])
    func overlaps(mounted: Bool) throws {
        try Self.withPlace(mounted: mounted) { folder, place, store in
            func run(_ arguments: [String]) throws -> CommandResult {
                try Self.minutafs(arguments + (mounted ? [] : ["--timezone", "UTC"]) + [place], state: folder)
            }
            #expect(try run(["track", "2020-01-10T09:00", "-", "2020-01-10T10:30", "--comment", "first"]).status == 0)
            let refused = try run(["track", "2020-01-10T10:00", "-", "2020-01-10T11:00", "--comment", "second"])
            #expect(refused.status == 1 && refused.errorText.contains("overlaps 2020/01/2020-01-10_090000.json (2020-01-10 09:00 to 10:30)")
                    && refused.errorText.contains("--adjust"), "\(refused.errorText)")
            #expect(try Self.records(commented: "second", place: place, store: store, mounted: mounted).isEmpty, "nothing written")
            // start --at over it too.
            let start = try run(["start", "--at", "2020-01-10T10:00", "--comment", "late start"])
            #expect(start.status == 1 && start.errorText.contains("2020/01/2020-01-10_090000.json"), "\(start.errorText)")
            // --adjust trims the first to end where the second starts.
            let adjusted = try run(["track", "2020-01-10T10:00", "-", "2020-01-10T11:00", "--comment", "second", "--adjust"])
            #expect(adjusted.status == 0 && adjusted.outputText.contains("adjusted 2020/01/2020-01-10_090000.json (2020-01-10 09:00 to 10:30): now ends at 2020-01-10 10:00"),
                    "\(adjusted.outputText)\(adjusted.errorText)")
            #expect(try Self.records(commented: "first", place: place, store: store, mounted: mounted).first?["endTime"] as? String == "2020-01-10T10:00:00Z")
            // A record inside the new interval is removed; one around it is split.
            let around = try run(["track", "2020-01-10T09:15", "-", "2020-01-10T09:45", "--comment", "inside", "--adjust"])
            #expect(around.status == 0 && around.outputText.contains("split"), "\(around.outputText)\(around.errorText)")
            #expect(try Self.records(commented: "first", place: place, store: store, mounted: mounted).count == 2)
            #expect(try run(["undo"]).status == 0)
            let first = try Self.records(commented: "first", place: place, store: store, mounted: mounted)
            #expect(first.count == 1 && first.first?["endTime"] as? String == "2020-01-10T10:00:00Z", "\(first)")
            // --keep asks for timers side by side: the overlap is allowed, and nothing is trimmed.
            let beside = try run(["start", "--keep", "--at", "2020-01-10T09:30", "--comment", "beside"])
            #expect(beside.status == 0 && !beside.outputText.contains("adjusted"), "\(beside.outputText)\(beside.errorText)")
            #expect(try Self.records(commented: "first", place: place, store: store, mounted: mounted).first?["endTime"] as? String == "2020-01-10T10:00:00Z")
        }
    }

    @Test("an unknown --tag creates the tag with the first unused palette color, said; undo removes it", arguments: [false, true])
    func createdTag(mounted: Bool) throws {
        try Self.withPlace(mounted: mounted) { folder, place, store in
            func run(_ arguments: [String]) throws -> CommandResult {
                try Self.minutafs(arguments + (mounted ? [] : ["--timezone", "UTC"]) + [place], state: folder)
            }
            // The sample store's own timers (2024) ended first: `now` shows every running timer.
            #expect(try run(["stop", "--at", "2025-01-01T00:00"]).status == 0)
            let first = try run(["start", "--tag", "Gardening", "--comment", "g"])
            #expect(first.status == 0 && first.outputText.hasPrefix("created tag Gardening (#4E79A7)\n"), "\(first.outputText)\(first.errorText)")
            let second = try run(["track", "2020-01-10T09:00", "-", "2020-01-10T10:00", "--tag", "Piano"])
            #expect(second.status == 0 && second.outputText.hasPrefix("created tag Piano (#F28E2B)\n"), "\(second.outputText)\(second.errorText)")
            let tags = try run(["now", "--format", "%t"])
            #expect(tags.outputText == "Gardening\n", "\(tags.outputText)")
            // The tag is in the store, with its color.
            func tagsText() throws -> String {
                mounted ? try String(contentsOfFile: place + "/tags.json", encoding: .utf8)
                    : String(decoding: try Store(folder: FilePath(store), timeZone: .utc).tagsFile(), as: UTF8.self)
            }
            let text = try tagsText()
            #expect(text.contains("\"name\": \"Piano\",\n      \"color\": \"#F28E2B\""), "\(text)")
            #expect(try run(["undo"]).status == 0)
            #expect(try !tagsText().contains("Piano"))
            #expect(try tagsText().contains("Gardening"))
        }
    }

    @Test("summary's month total is report's, and its weeks add up to it", arguments: ["2024-03", "2024-10"])
    func summaryMatchesReport(month: String) throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/demo"
            let demo = try MinutafsBinary.run(["demo", store, "--now", "2024-11-24T12:00:00Z", "--timezone", "UTC"])
            #expect(demo.status == 0, "\(demo.errorText)")
            let report = try MinutafsBinary.run(["report", store, "--month", month, "--timezone", "UTC"])
            #expect(report.status == 0, "\(report.errorText)")
            // The month table's total line: `                 97:05  total`.
            let reportTotal = try #require(report.outputText.split(separator: "\n").first { $0.hasSuffix("  total") && $0.contains(":") }?
                .split(separator: " ").first.map(String.init))
            let summary = try Self.minutafs(["summary", "--month", "--date", month + "-15", "--timezone", "UTC", store], state: folder)
            #expect(summary.status == 0, "\(summary.errorText)")
            let lines = summary.outputText.split(separator: "\n").map(String.init)
            #expect(lines.last == "total \(month)-01 to \(month)-31: \(reportTotal)", "\(summary.outputText)")
            func minutes(_ text: Substring) -> Int {
                let parts = text.split(separator: ":")
                return (Int(parts.first ?? "") ?? 0) * 60 + (Int(parts.last ?? "") ?? 0)
            }
            let weeks = lines.filter { $0.hasPrefix("week of ") }.compactMap { $0.split(separator: " ").last }.map(minutes)
            let days = lines.filter { $0.hasPrefix(month) }.compactMap { $0.split(separator: " ").dropFirst(2).first }.map(minutes)
            #expect(weeks.count >= 4 && weeks.reduce(0, +) == minutes(Substring(reportTotal)), "\(summary.outputText)")
            #expect(days.reduce(0, +) == minutes(Substring(reportTotal)), "\(summary.outputText)")
        }
    }

    @Test("a time the clocks skip or repeat is refused with the choices, changing nothing; with its offset it is taken")
    func daylightSaving() throws {
        try withTemporaryDirectory { folder in
            let store = try StoreFixture.copy(into: folder)
            let before = try folderSnapshot(store)
            let skipped = try Self.minutafs(["start", "--at", "2026-03-29T02:30", "--comment", "gap", "--timezone", "Europe/Berlin", store], state: folder)
            #expect(skipped.status == 1 && skipped.errorText.contains("does not exist in Europe/Berlin")
                    && skipped.errorText.contains("2026-03-29T01:59 and 2026-03-29T03:00"), "\(skipped.errorText)")
            let repeated = try Self.minutafs(["track", "2026-10-25T02:30", "-", "2026-10-25T03:30", "--comment", "twice", "--timezone", "Europe/Berlin", store], state: folder)
            #expect(repeated.status == 1 && repeated.errorText.contains("2026-10-25T02:30+02:00 (the first) or 2026-10-25T02:30+01:00 (the second)"),
                    "\(repeated.errorText)")
            #expect(try folderSnapshot(store) == before, "nothing written")
            let offset = try Self.minutafs(["track", "2026-10-25T02:30+01:00", "-", "2026-10-25T03:30", "--comment", "twice", "--timezone", "Europe/Berlin", store], state: folder)
            #expect(offset.status == 0, "\(offset.errorText)")
            let record = try #require(try TimerCommandTests.records(commented: "twice", in: store).first)
            #expect(record["startTime"] as? String == "2026-10-25T01:30:00Z" && record["endTime"] as? String == "2026-10-25T02:30:00Z", "\(record)")
            // An END given as a clock time is read after START: the night the clocks go forward has 23 hours.
            let night = try Self.minutafs(["track", "2026-03-28T23:00", "-", "04:00", "--comment", "night", "--timezone", "Europe/Berlin", store], state: folder)
            #expect(night.status == 0 && night.outputText.contains("(4:00)"), "\(night.outputText)\(night.errorText)")
            let nightRecord = try #require(try TimerCommandTests.records(commented: "night", in: store).first)
            #expect(nightRecord["startTime"] as? String == "2026-03-28T22:00:00Z" && nightRecord["endTime"] as? String == "2026-03-29T02:00:00Z",
                    "\(nightRecord)")
        }
    }

    @Test("what track prints: the repeated hour with offsets, a duration rounded as reports round it, a time no record can hold refused by the text given")
    func trackPrints() throws {
        try withTemporaryDirectory { folder in
            let store = try StoreFixture.copy(into: folder)
            let repeated = try Self.minutafs(["track", "2026-10-25T02:30+02:00", "-", "2026-10-25T02:30+01:00", "--comment", "repeated", "--timezone", "Europe/Berlin", store], state: folder)
            #expect(repeated.status == 0 && repeated.outputText.contains("from 2026-10-25 02:30 +02:00 to 02:30 +01:00 (1:00)"), "\(repeated.outputText)\(repeated.errorText)")
            // 30 seconds: the timesheet rounds half up to 0:01, and so does what track says.
            let short = try Self.minutafs(["track", "2026-05-04T09:00:00", "-", "2026-05-04T09:00:30", "--comment", "short", "--timezone", "UTC", store], state: folder)
            #expect(short.status == 0 && short.outputText.contains("(0:01)"), "\(short.outputText)\(short.errorText)")
            let before = try folderSnapshot(store)
            let yearZero = try Self.minutafs(["track", "0001-01-01T00:10", "-", "0001-01-01T00:50", "--timezone", "Europe/Berlin", store], state: folder)
            #expect(yearZero.status == 1 && yearZero.errorText.contains("\"0001-01-01T00:10\": that is outside the years 1 to 9999 in UTC")
                    && !yearZero.errorText.contains("minutafs-start") && !yearZero.errorText.contains("--at"), "\(yearZero.errorText)")
            let unreadable = try Self.minutafs(["track", "09:00", "-", "soon", "--timezone", "UTC", store], state: folder)
            #expect(unreadable.status == 1 && unreadable.errorText.contains("\"soon\": not a time") && !unreadable.errorText.contains("--at"), "\(unreadable.errorText)")
            #expect(try folderSnapshot(store) == before, "nothing written")
        }
    }

    @Test("through a mount, track, cancel, annotate and undo are each one action of the mount: two at once never both pass the checks")
    func oneActionEach() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let environment = "XDG_STATE_HOME='\(folder)/state' TZ=UTC"
            let binary = try MinutafsBinary.path()
            let point = mounted.mountPoint
            #expect(try Self.minutafs(["stop", "--at", "2025-01-01T00:00", point], state: folder).status == 0)
            /// Runs `first` and `second` at once; their exit statuses and outputs.
            func together(_ first: String, _ second: String) throws -> (statuses: [Int], output: String) {
                let script = """
                    \(environment) '\(binary)' \(first) '\(point)' > '\(folder)/a' 2>&1 & a=$!
                    \(environment) '\(binary)' \(second) '\(point)' > '\(folder)/b' 2>&1 & b=$!
                    wait $a; sa=$?; wait $b; sb=$?
                    echo "status $sa $sb"; cat '\(folder)/a' '\(folder)/b'
                    """
                let both = try Shell.run(script)
                let line = both.output.split(separator: "\n").first { $0.hasPrefix("status ") } ?? ""
                return (line.split(separator: " ").dropFirst().compactMap { Int($0) }, both.output)
            }
            for round in 0..<5 {
                let day = "2020-02-1\(round)"
                // The same interval twice, with a tag no one has: one is tracked (and creates the tag),
                // the other is refused as overlapping it; never two records, never two tags.
                let tracks = try together("track \(day)T09:00 - \(day)T10:00 --tag Piano\(round) --comment twice\(round)",
                                          "track \(day)T09:30 - \(day)T10:30 --tag Piano\(round) --comment twice\(round)")
                #expect(tracks.statuses.sorted() == [0, 1] && tracks.output.contains("overlaps"), "round \(round): \(tracks.output)")
                #expect(try Self.records(commented: "twice\(round)", place: point, store: mounted.store, mounted: true).count == 1)
                let tags = try String(contentsOfFile: point + "/tags.json", encoding: .utf8)
                #expect(tags.components(separatedBy: "\"Piano\(round)\"").count == 2, "one tag Piano\(round): \(tags)")
                // One running timer cancelled twice at once: one removes it, the other finds none.
                #expect(try Self.minutafs(["start", "--comment", "cancel me \(round)", point], state: folder).status == 0)
                let cancels = try together("cancel", "cancel")
                #expect(cancels.statuses.sorted() == [0, 1] && cancels.output.contains("no timer is running"), "round \(round): \(cancels.output)")
                #expect(try Self.minutafs(["now", point], state: folder).status == 1, "nothing runs after cancel, at once")
            }
            // annotate: the running timer's comment, shown by `now` (now.txt) at once.
            #expect(try Self.minutafs(["start", "--comment", "before", point], state: folder).status == 0)
            #expect(try Self.minutafs(["annotate", "after", point], state: folder).status == 0)
            let now = try Self.minutafs(["now", point], state: folder)
            #expect(now.status == 0 && now.outputText.contains("after") && !now.outputText.contains("before"), "\(now.outputText)")
            // undo of a start through the mount: the timer is gone from `now` at once (an unlink through
            // the mount would wait out its grace period).
            #expect(try Self.minutafs(["start", "--comment", "undo me", point], state: folder).status == 0)
            let undone = try Self.minutafs(["undo", point], state: folder)
            #expect(undone.status == 0 && undone.outputText.contains("undid start"), "\(undone.outputText)\(undone.errorText)")
            let after = try Self.minutafs(["now", "--format", "%c", point], state: folder)
            #expect(after.outputText == "after\n", "the timer annotate changed runs again, alone: \(after.outputText)")
            #expect(try Self.minutafs(["now", point], state: folder).outputText.contains("undo me") == false)
            #expect(mounted.unmount() == 0)
        }
    }
}
