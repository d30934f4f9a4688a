import MinutaStore
import MinutaTimer
import Testing

/// How `minutafs now` prints: text, templates, and one line of JSON whatever a comment holds.
@Suite struct TimerDisplayTests {
    struct FixedBackend: TimerBackend {
        var timeZone: StoreTimeZone { StoreTimeZone(identifier: "Europe/Berlin")! }
        var placeDescription: String { "test" }
        func months() throws(TimerError) -> [Month] { [] }
        func recordFiles(in month: Month) throws(TimerError) -> [(name: String, bytes: [UInt8])] { [] }
        func tagsJSON() throws(TimerError) -> [UInt8] { [] }
        func write(_ bytes: [UInt8], named name: String, in month: Month) throws(TimerError) {}
        func create(_ bytes: [UInt8], in month: Month) throws(TimerError) -> String { "" }
    }

    /// 2024-11-24T10:00:00Z (11:00 in Berlin).
    static let now: Int64 = 1_732_442_400_000
    static let tags = [TagSummary(id: "11111111-1111-4111-8111-111111111111", name: "Work", isArchived: false)]

    func timer(comment: String, startedMinutesAgo minutes: Int64) throws -> TimerRecord {
        let start = ISO8601.string(milliseconds: Self.now - minutes * 60_000)
        let json = #"{"id": "AAAAAAAA-1111-4111-8111-111111111111", "startTime": "\#(start)", "tagId": "11111111-1111-4111-8111-111111111111", "comment": \#(JSONWriter.string(comment)), "images": []}"#
        return try #require(TimerRecord(month: Month(year: 2024, month: 11)!, fileName: "x.json", bytes: Array(json.utf8)))
    }

    func display(_ timers: [TimerRecord]) -> TimerDisplay {
        TimerDisplay(timers: timers, tags: Self.tags, now: Self.now, actions: TimerActions(backend: FixedBackend()))
    }

    @Test("text, templates and JSON of a running timer")
    func running() throws {
        let shown = display([try timer(comment: "sync bug", startedMinutesAgo: 83)])
        #expect(shown.text == "Work: sync bug 1:23\n")
        #expect(shown.formatted("[%t %e since %s] %c %% %x") == "[Work 1:23 since 09:37] sync bug % %x")
        #expect(shown.formatted("{tag} {elapsed} {start} {comment} {nope} {more}|") == "Work 1:23 09:37 sync bug {nope} |")
        #expect(shown.json == #"{"text": "1:23 Work", "alt": "running", "tooltip": "Work: sync bug (since 09:37)", "class": "running", "percentage": 17}"# + "\n")
        #expect(shown.i3blocks == "1:23 Work: sync bug\n1:23 Work\n")
    }

    @Test("waybar reads text and tooltip as Pango markup: & < > from the store are escaped")
    func waybarMarkup() throws {
        let tags = [TagSummary(id: "11111111-1111-4111-8111-111111111111", name: "Meetings & Calls", isArchived: false)]
        let shown = TimerDisplay(timers: [try timer(comment: "<b>plan</b> & \"go\"", startedMinutesAgo: 5)], tags: tags, now: Self.now,
                                 actions: TimerActions(backend: FixedBackend()))
        #expect(shown.json.contains(#""text": "0:05 Meetings &amp; Calls""#), "\(shown.json)")
        #expect(shown.json.contains(#""tooltip": "Meetings &amp; Calls: &lt;b&gt;plan&lt;/b&gt; &amp; &quot;go&quot; (since 10:55)""#), "\(shown.json)")
        #expect(!shown.json.contains("<b>") && !shown.json.contains("& "))
        // Not markup elsewhere: a prompt and i3blocks (no markup by default) get the text as written.
        #expect(shown.formatted("%t") == "Meetings & Calls")
        #expect(shown.i3blocks.hasPrefix("0:05 Meetings & Calls: <b>plan</b>"))
        #expect(TimerDisplay.waybarError("minutafs: /x: no such folder <&>").contains(#""tooltip": "minutafs: /x: no such folder &lt;&amp;&gt;", "class": "error""#))
    }

    @Test("two timers: one line for the newest, with +1")
    func twoTimers() throws {
        var older = try timer(comment: "older", startedMinutesAgo: 90)
        older.tagID = nil
        let newer = try timer(comment: "newer", startedMinutesAgo: 10)
        let shown = display([older, newer])
        #expect(shown.formatted("{tag} {elapsed}") == "Work 0:10 +1")
        #expect(shown.formatted("[%t %e] ") == "[Work 0:10] +1 ")
        #expect(shown.formatted("%e (%m) %c") == "0:10 (+1) newer")
        #expect(shown.json.contains(#""text": "0:10 Work +1""#))
        #expect(shown.json.contains(#""tooltip": "(no tag): older (since 09:30)\nWork: newer (since 10:50)""#), "\(shown.json)")
        #expect(shown.i3blocks == "0:10 Work: newer +1\n0:10 Work +1\n")
        #expect(shown.text.split(separator: "\n").count == 2, "the terminal form lists every timer")
    }

    @Test("store text cannot drive polybar: %{ is defused")
    func polybarTags() throws {
        let shown = display([try timer(comment: "%{A1:xterm:}click%{A}", startedMinutesAgo: 1)])
        let line = shown.formatted("{comment} {tag}")
        #expect(!line.contains("%{") && line.contains("click"), "\(line)")
        #expect(shown.formatted("%%{F#f00}%t") == "%{F#f00}Work", "the template's own tags are the user's")
    }

    @Test("a comment cannot drive the terminal or break the JSON line")
    func hostileComment() throws {
        let shown = display([try timer(comment: "\u{1B}]0;pwned\u{07}\u{1B}[2J\nline \"two\"", startedMinutesAgo: 5)])
        #expect(!shown.text.contains("\u{1B}") && !shown.text.contains("\u{07}"))
        #expect(shown.text.split(separator: "\n").count == 1)
        #expect(shown.json.split(separator: "\n").count == 1 && !shown.json.contains("\u{1B}"))
        #expect(shown.json.contains(#"\u001b]0;pwned\u0007\u001b[2J\nline &quot;two&quot;"#), "\(shown.json)")
        #expect(shown.i3blocks.split(separator: "\n").count == 2 && !shown.i3blocks.contains("\u{1B}"), "one line per property")
        #expect(!shown.formatted("%c").contains("\u{1B}") && !shown.formatted("%c").contains("\n"))
    }

    @Test("a timer running more than a day is flagged; none running is idle")
    func longAndIdle() throws {
        let long = display([try timer(comment: "", startedMinutesAgo: 60 * 30)])
        #expect(long.text == "Work 30:00 (running 1 d 6 h, since 2024-11-23 05:00; id AAAAAAAA-1111-4111-8111-111111111111)\n")
        let years = display([try timer(comment: "", startedMinutesAgo: 60 * 24 * (365 * 3 + 2))])
        #expect(years.text.contains("(running 3 y 2 d, since "), "\(years.text)")
        #expect(long.json.contains(#""alt": "long""#) && long.json.contains(#""class": "long", "percentage": 100}"#))
        #expect(long.i3blocks == "30:00 Work\n30:00 Work\n\(TimerDisplay.longColor)\n")
        #expect(display([]).json == #"{"text": "", "alt": "idle", "tooltip": "no timer running", "class": "idle", "percentage": 0}"# + "\n")
        #expect(display([]).text.isEmpty && display([]).i3blocks.isEmpty && display([]).formatted("%t").isEmpty)
    }

    @Test("stopping sets endTime after startTime and keeps every other key as it was")
    func stopped() throws {
        let json = #"{"id": "AAAAAAAA-1111-4111-8111-111111111111", "startTime": "2024-11-24T09:00:00Z", "extra": {"n": 18446744073709551615}, "images": []}"#
        let record = try #require(TimerRecord(month: Month(year: 2024, month: 11)!, fileName: "x.json", bytes: Array(json.utf8)))
        #expect(record.isRunning)
        let text = String(decoding: record.stopped(at: Self.now), as: UTF8.self)
        #expect(text.contains("\"startTime\": \"2024-11-24T09:00:00Z\",\n  \"endTime\": \"2024-11-24T10:00:00Z\""))
        #expect(text.contains("18446744073709551615"))
    }
}
