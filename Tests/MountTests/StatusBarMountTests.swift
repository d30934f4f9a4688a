import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// `minutafs now` as status bars read it (SPEC 10): the README's waybar, i3blocks,
/// polybar and prompt snippets, their commands run as written (`~/minuta` a store, or its mount, in a
/// sandbox home), the i3blocks block by Debian's real `i3blocks`; markup in a tag or comment escaped;
/// idle a success, an error another exit status and the bar's error form; two timers one line.
@Suite(.serialized) struct StatusBarMountTests {
    static let commute = "7993C5A5-14D0-4821-B976-E95BFDEB18D8"

    /// A sandbox home with `~/minuta` (a copy of the sample store, or a link to `target`), and the
    /// environment a bar runs its commands in: the built `minutafs` on PATH, no other default store.
    struct Home {
        let home: String
        let minuta: String
        let environment: [String: String]

        init(in folder: String, linkingTo target: String? = nil) throws {
            home = folder + "/home"
            minuta = home + "/minuta"
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            if let target {
                try FileManager.default.createSymbolicLink(atPath: minuta, withDestinationPath: target)
            } else {
                try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: minuta)
                #expect(try Shell.run("chmod -R u+w '\(minuta)'").status == 0)
                try StatusBarMountTests.endRunningTimers(in: minuta)
            }
            let binaries = URL(fileURLWithPath: try MinutafsBinary.path()).deletingLastPathComponent().path
            environment = [
                "HOME": home, "PATH": binaries + ":/usr/local/bin:/usr/bin:/bin", "TZ": "UTC", "LC_ALL": "C.UTF-8",
                "MINUTAFS_STORE": "", "XDG_CONFIG_HOME": home + "/.config", "XDG_CACHE_HOME": home + "/.cache",
                "XDG_STATE_HOME": home + "/.local/state",
            ]
        }

        /// `minutafs ARGUMENTS` in this home.
        func minutafs(_ arguments: [String]) throws -> CommandResult {
            try MinutafsBinary.run(arguments, environment: environment)
        }

        /// A snippet's command line, run by a shell as the bar runs it: standard output only.
        func command(_ line: String) throws -> Shell.Result {
            try Shell.run("cd \"$HOME\" && { \(line) ; } 2>/dev/null", environment: environment)
        }
    }

    /// Ends the sample store's own running timers (at their start), so the test's are the only ones.
    static func endRunningTimers(in store: String) throws {
        let opened = try Store(folder: FilePath(store), timeZone: .utc)
        for month in try opened.months() {
            for file in try opened.recordFiles(in: month) {
                let text = String(decoding: file.contents, as: UTF8.self)
                guard !text.contains("\"endTime\""),
                      let start = text.range(of: #""startTime": "[^"]*""#, options: .regularExpression) else { continue }
                let value = text[start].dropFirst(#""startTime": "#.count)
                let ended = text.replacingCharacters(in: start, with: text[start] + ", \"endTime\": " + value)
                _ = try opened.writeRecordFile(Array(ended.utf8), named: file.name, in: month)
            }
        }
    }

    /// Adds a tag named `name` to the store (not mounted) with the store library, unless it has one.
    static func addTag(_ name: String, to store: String) throws {
        let opened = try Store(folder: FilePath(store), timeZone: .utc)
        let tags = String(decoding: try opened.tagsFile(), as: UTF8.self)
        guard !tags.contains("\"name\": " + JSONWriter.string(name)) else { return }
        let list = try #require(tags.range(of: "\"tags\": ["), "\(tags)")
        let added = tags.replacingCharacters(in: list, with: "\"tags\": [\n    {\"name\": \(JSONWriter.string(name))},")
        #expect(added != tags)
        #expect(try opened.writeTagsFile(Array(added.utf8)))
    }

    /// The fenced block in README.md's "Status bars and prompts" whose language is `language` and that
    /// holds `marker`.
    static func snippet(_ language: String, holding marker: String) throws -> String {
        let readme = try String(contentsOfFile: Fixtures.packageRoot + "/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "#### Status bars and prompts").dropFirst().first)
            .components(separatedBy: "\n#### ").first ?? ""
        let blocks = section.components(separatedBy: "```" + language + "\n").dropFirst().map { $0.components(separatedBy: "\n```").first ?? "" }
        return try #require(blocks.first { $0.contains(marker) }, "README.md has no \(language) block with \(marker)")
    }

    /// The value after `key` on the snippet's line that begins with it (`exec = `, `command=`, `"exec": "`).
    static func command(in snippet: String, after key: String, droppingLast suffix: String = "") throws -> String {
        let line = try #require(snippet.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix(key) })
        var command = String(line.dropFirst(key.count))
        if !suffix.isEmpty, command.hasSuffix(suffix) { command.removeLast(suffix.count) }
        return command
    }

    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
    }

    @Test("waybar: the README's exec, a tag with & and a comment with <b> escaped as Pango markup; idle exit 0; an error exit 1 with class error")
    func waybar() throws {
        try withTemporaryDirectory { folder in
            let home = try Home(in: folder)
            let exec = try Self.command(in: try Self.snippet("json", holding: "custom/minuta"), after: #""exec": ""#, droppingLast: #"","#)
            #expect(exec.contains("minutafs now"), "\(exec)")
            // Idle: exit 0 (waybar hides a module whose command fails), class idle.
            let idle = try home.command(exec)
            #expect(idle.status == 0, "\(idle.output)")
            let idleObject = try Self.object(idle.output)
            #expect(idleObject["class"] as? String == "idle" && idleObject["alt"] as? String == "idle" && idleObject["text"] as? String == "")
            try Self.addTag("Meetings & Calls", to: home.minuta)
            let started = try home.minutafs(["start", "--tag", "Meetings & Calls", "--comment", "<b>plan</b> & review", "--at", "-90m", home.minuta])
            #expect(started.status == 0, "\(started.errorText)")
            let running = try home.command(exec)
            #expect(running.status == 0 && running.output.split(separator: "\n").count == 1, "\(running.output)")
            let object = try Self.object(running.output)
            #expect(Set(object.keys) == ["text", "alt", "tooltip", "class", "percentage"], "\(object.keys)")
            #expect(object["text"] as? String == "1:30 Meetings &amp; Calls", "\(running.output)")
            let tooltip = try #require(object["tooltip"] as? String)
            #expect(tooltip.hasPrefix("Meetings &amp; Calls: &lt;b&gt;plan&lt;/b&gt; &amp; review (since "), "\(tooltip)")
            #expect(object["class"] as? String == "running" && object["alt"] as? String == "running")
            #expect(object["percentage"] as? Int == 18, "90 minutes of 8 hours")
            // --format waybar is the same form.
            let named = try home.minutafs(["now", "--format", "waybar", home.minuta])
            let namedObject = try Self.object(named.outputText)
            #expect(named.status == 0 && namedObject["text"] as? String == "1:30 Meetings &amp; Calls")
            // An error: another exit status, and the object waybar can style.
            let missing = try home.command(exec.replacingOccurrences(of: "~/minuta", with: "~/no-such-store"))
            #expect(missing.status == 1, "\(missing.output)")
            let error = try Self.object(missing.output)
            #expect(error["class"] as? String == "error" && error["alt"] as? String == "error")
            #expect((error["tooltip"] as? String)?.contains("no-such-store: no such folder") == true, "\(missing.output)")
        }
    }

    @Test("polybar and a prompt: the README's template, one line for the newest of two timers with +1, an empty line and exit 0 when idle")
    func polybarAndPrompt() throws {
        try withTemporaryDirectory { folder in
            let home = try Home(in: folder)
            let exec = try Self.command(in: try Self.snippet("ini", holding: "custom/script"), after: "exec = ")
            let idle = try home.command(exec)
            #expect(idle.status == 0 && idle.output == "\n", "polybar hides the module on one empty line and exit 0: \(idle.output)")
            #expect(try home.minutafs(["start", "--tag", "commute", "--comment", "first", "--at", "-2h", home.minuta]).status == 0)
            let second = try home.minutafs(["start", "--keep", "--tag", "commute", "--comment", "%{A1:xterm:}second%{A}", "--at", "-45m", home.minuta])
            #expect(second.status == 0, "\(second.errorText)")
            let line = try home.command(exec)
            #expect(line.status == 0 && line.output == "0:45 Commute +1\n", "\(line.output)")
            let comment = try home.minutafs(["now", "--format", "{comment}", home.minuta])
            #expect(comment.status == 0 && !comment.outputText.contains("%{") && comment.outputText.contains("second"), "\(comment.outputText)")
            // The prompt line of the README, as bash runs it.
            let prompt = try Self.snippet("sh", holding: "PS1=")
            let shown = try Shell.run("PS1='$ '; \(prompt)\nprintf '%s' \"${PS1@P}\"", environment: home.environment.merging(["PWD": home.minuta]) { $1 })
            #expect(shown.status == 0, "\(shown.output)")
            // The prompt's store is the configured one: none here, so the prompt is just "$ ".
            #expect(shown.output == "$ ", "\(shown.output)")
            try FileManager.default.createDirectory(atPath: home.home + "/.config/minutafs", withIntermediateDirectories: true)
            try Data("store = \"~/minuta\"  # the sandbox's\n".utf8).write(to: URL(fileURLWithPath: home.home + "/.config/minutafs/config"))
            let configured = try Shell.run("PS1='$ '; \(prompt)\nprintf '%s' \"${PS1@P}\"", environment: home.environment)
            #expect(configured.output == "[Commute 0:45] +1 $ ", "\(configured.output)")
        }
    }

    @Test("i3blocks: Debian's i3blocks runs the README's block and shows the tag and the time so far")
    func i3blocks() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/i3blocks") else {
            Issue.record("i3blocks is not installed (apt-get install i3blocks; make deps and .ci/run install it)")
            return
        }
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            defer { _ = mounted.unmount() }
            let home = try Home(in: folder, linkingTo: mounted.mountPoint)
            try Self.endRunningTimers(in: mounted.store)
            let block = try Self.snippet("ini", holding: "command=")
            // An error: the message, a short text and red, exit 1 (i3blocks keeps the first line).
            let failed = try home.command(try Self.command(in: block, after: "command=").replacingOccurrences(of: "~/minuta", with: "~/no-such-store"))
            let lines = failed.output.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(failed.status == 1 && lines.count == 4 && lines[0].contains("no-such-store: no such folder") && lines[2] == "#FF5555", "\(failed.output)")
            #expect(try home.minutafs(["start", "--tag", "Commute", "--comment", "to the office", "--at", "-75m", home.minuta]).status == 0)
            let updates = try Self.runI3blocks(config: block, home: home, in: folder) { updates in
                updates.contains { $0.contains { $0["name"] as? String == "minuta" } }
            }
            let minuta = try #require(updates.joined().first { $0["name"] as? String == "minuta" }, "\(updates)")
            #expect(minuta["full_text"] as? String == "1:15 Commute: to the office", "\(minuta)")
            #expect(minuta["short_text"] as? String == "1:15 Commute", "\(minuta)")
            #expect(minuta["color"] == nil, "no color for a timer of today: \(minuta)")
            // Idle: after the block's first run (i3blocks' second update), no block shows any text.
            #expect(try home.minutafs(["stop", home.minuta]).status == 0)
            let idle = try Self.runI3blocks(config: block, home: home, in: folder) { $0.count >= 2 }
            #expect(idle.joined().allSatisfy { ($0["full_text"] as? String ?? "").isEmpty }, "\(idle)")
        }
    }

    /// Runs `i3blocks -c CONFIG` until the updates it has printed (i3bar's JSON protocol on standard
    /// output: a header, `[`, then one array of blocks per update) satisfy `done`, and returns them.
    static func runI3blocks(config: String, home: Home, in folder: String, until done: ([[[String: Any]]]) -> Bool) throws -> [[[String: Any]]] {
        let configPath = folder + "/i3blocks.conf"
        let outputPath = folder + "/i3blocks.out"
        try Data((config + "\n").utf8).write(to: URL(fileURLWithPath: configPath))
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/i3blocks")
        process.arguments = ["-c", configPath]
        process.environment = home.environment
        process.currentDirectoryURL = URL(fileURLWithPath: home.home)
        let input = Pipe()  // i3bar's click events; held open so that i3blocks keeps running
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        func updates() -> [[[String: Any]]] {
            guard let text = try? String(contentsOfFile: outputPath, encoding: .utf8) else { return [] }
            return text.split(separator: "\n").compactMap { line in
                var body = line.trimmingCharacters(in: .whitespaces)
                if body.hasPrefix(",") { body.removeFirst() }
                guard body.hasPrefix("[{"), body.hasSuffix("]") else { return nil }
                return try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]]
            }
        }
        return try #require(eventuallyValue(within: 60, every: 0.05) { () -> [[[String: Any]]]? in
            let printed = updates()
            return done(printed) ? printed : nil
        }, "i3blocks printed no such update: \((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")")
    }
}
