import Foundation
import Testing
import TestSupport

/// The shell completions: bash's completion function, as bash-completion would call
/// it on Tab, offers the demo store's tag names for `--tag` (read from the store the command line
/// names, else the configured one) and the forms of `--at`; zsh and fish, run in a terminal with
/// their generated scripts, offer the tag names on Tab too.
@Suite(.serialized) struct CompletionTests {
    /// The demo store (tags Work, Meetings, Exercise, Reading, Side project; Old client archived) in
    /// `folder/store`, and an environment with the built minutafs first on PATH.
    static func demo(in folder: String) throws -> (store: String, environment: [String: String]) {
        let store = folder + "/store"
        let made = try MinutafsBinary.run(["demo", store, "--now", "2024-11-24T12:00:00Z", "--timezone", "UTC"])
        #expect(made.status == 0, "\(made.errorText)")
        let binaries = URL(fileURLWithPath: try MinutafsBinary.path()).deletingLastPathComponent().path
        return (store, ["PATH": binaries + ":/usr/bin:/bin", "HOME": folder, "XDG_CONFIG_HOME": folder + "/.config", "MINUTAFS_STORE": ""])
    }

    /// COMPREPLY after bash's completion function for `minutafs` runs on `words`, completing word `index`.
    static func complete(_ words: [String], index: Int, environment: [String: String], in folder: String) throws -> [String] {
        let script = folder + "/minutafs.bash"
        let generated = try MinutafsBinary.run(["--generate-completion-script", "bash"])
        #expect(generated.status == 0)
        try Data(generated.standardOutput).write(to: URL(fileURLWithPath: script))
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let line = words.joined(separator: " ")
        let function = try #require(generated.outputText.range(of: #"complete -o filenames -F (\S+) minutafs"#, options: .regularExpression)
            .map { generated.outputText[$0].split(separator: " ")[4] }, "no `complete -F` line in the bash script")
        let bash = """
            set -u
            source '\(script)'
            COMP_WORDS=(\(quoted.joined(separator: " ")))
            COMP_CWORD=\(index)
            COMP_LINE='\(line.replacingOccurrences(of: "'", with: "'\\''"))'
            COMP_POINT=\(words[...index].joined(separator: " ").utf8.count)
            COMPREPLY=()
            \(function) minutafs "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try runBounded(["env"] + environment.map { "\($0)=\($1)" } + ["bash", "-c", bash], within: 60)
        #expect(result.status == 0 && !result.overran, "\(result.output)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test("--tag offers the store's tag names: from MINUTAFS_STORE, from the path on the line, and by prefix")
    func tagNames() throws {
        try withTemporaryDirectory { folder in
            let (store, environment) = try Self.demo(in: folder)
            let configured = environment.merging(["MINUTAFS_STORE": store]) { $1 }
            let all = try Self.complete(["minutafs", "start", "--tag", ""], index: 3, environment: configured, in: folder)
            #expect(Set(all) == ["Work", "Meetings", "Exercise", "Reading", "Side project"], "\(all)")
            // The store named after the tag on the line; a prefix.
            let named = try Self.complete(["minutafs", "start", "--tag", "Me", store], index: 3, environment: environment, in: folder)
            #expect(named == ["Meetings"], "\(named)")
            // No store known: nothing offered, nothing printed.
            let none = try Self.complete(["minutafs", "start", "--tag", ""], index: 3, environment: environment, in: folder)
            #expect(none.isEmpty, "\(none)")
        }
    }

    @Test("--at offers its forms; the path completes folders")
    func atForms() throws {
        try withTemporaryDirectory { folder in
            let (_, environment) = try Self.demo(in: folder)
            let forms = try Self.complete(["minutafs", "stop", "--at", ""], index: 3, environment: environment, in: folder)
            #expect(forms.contains("now") && forms.contains("-15m") && forms.contains("-1h"), "\(forms)")
            #expect(forms.contains { $0.range(of: #"^\d\d:\d\d$"#, options: .regularExpression) != nil }, "\(forms)")
            let minus = try Self.complete(["minutafs", "start", "--at", "-1"], index: 3, environment: environment, in: folder)
            #expect(minus == ["-15m", "-1h"], "\(minus)")
        }
    }

    @Test("zsh and fish, run interactively with the generated script, offer the store's tag names for --tag on Tab",
          arguments: ["zsh", "fish"])
    func otherShells(shell: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/" + shell) else {
            Issue.record("\(shell) is not installed: apt-get install \(shell) (make deps and .ci/run install it)")
            return
        }
        try withTemporaryDirectory { folder in
            let (store, environment) = try Self.demo(in: folder)
            let generated = try MinutafsBinary.run(["--generate-completion-script", shell])
            #expect(generated.status == 0, "\(generated.errorText)")
            // Where each shell finds it: zsh's $fpath (as _minutafs, which compinit reads), fish's `source`.
            let functions = folder + "/completions"
            try FileManager.default.createDirectory(atPath: functions, withIntermediateDirectories: true)
            let script = functions + (shell == "zsh" ? "/_minutafs" : "/minutafs.fish")
            try Data(generated.standardOutput).write(to: URL(fileURLWithPath: script))
            let setup = shell == "zsh" ? "fpath=('\(functions)' $fpath); autoload -U compinit; compinit -u -D" : "source '\(script)'"
            let offered = try Self.tabInTerminal(shell: shell, setup: setup, typed: "minutafs start --tag ",
                                                 expected: ["Work", "Meetings", "Exercise", "Reading", "Side project"],
                                                 environment: environment.merging(["MINUTAFS_STORE": store]) { $1 }, in: folder)
            #expect(offered.found, "\(shell) did not offer every tag name for --tag:\n\(offered.screen)")
            #expect(!offered.screen.contains("Old client"), "the archived tag is not offered:\n\(offered.screen)")
        }
    }

    /// Runs `shell` interactively in a pseudo-terminal (Python's `pty`), types `setup`, waits for it to
    /// have run, then types `typed` and Tab (twice if the first shows nothing), as a user would, and
    /// reads the screen until every `expected` word shows after the typed line (or the shell waits
    /// on input for 20 seconds: then `found` is false). The screen without escape sequences and
    /// carriage returns (fish redraws the line word by word as it colors it).
    static func tabInTerminal(shell: String, setup: String, typed: String, expected: [String], environment: [String: String],
                              in folder: String) throws -> (found: Bool, screen: String) {
        let driver = #"""
            import os, pty, re, select, sys, time
            shell, setup, typed, expected = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
            argv = {"zsh": ["zsh", "-f", "-i"], "fish": ["fish", "--no-config", "-i"]}[shell]
            pid, fd = pty.fork()
            if pid == 0:
                os.environ["TERM"] = "dumb" if shell == "zsh" else "xterm"
                os.execvp(argv[0], argv)
            screen = b""
            def text():
                return re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[=>()][0-9A-Za-z]?", b"", screen).decode(errors="replace").replace("\r", "")
            def wait_for(done, quiet_seconds):
                global screen
                last = time.monotonic()
                while time.monotonic() - last < quiet_seconds:
                    if done(text()): return True
                    ready, _, _ = select.select([fd], [], [], 0.1)
                    if ready:
                        try: data = os.read(fd, 65536)
                        except OSError: return done(text())
                        if not data: return done(text())
                        screen += data
                        last = time.monotonic()
                return done(text())
            os.write(fd, (setup + "; echo SETUP''DONE\n").encode())
            wait_for(lambda t: "SETUPDONE" in t, 20)
            os.write(fd, (typed + "\t").encode())
            def offered(t):
                after = t.split("SETUPDONE")[-1]
                return typed.strip() in after and all(word in after.split(typed.strip(), 1)[-1] for word in expected)
            found = wait_for(offered, 20)
            if not found:
                os.write(fd, b"\t")
                found = wait_for(offered, 20)
            print("FOUND" if found else "MISSING")
            print(text().split("SETUPDONE")[-1])
            os.kill(pid, 9)
            """#
        let result = try runBounded(["env"] + environment.map { "\($0)=\($1)" } + ["python3", "-c", driver, shell, setup, typed] + expected,
                                    within: 120)
        #expect(result.status == 0 && !result.overran, "\(result.output)")
        let lines = result.output.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        return (lines.first == "FOUND", lines.count > 1 ? String(lines[1]) : "")
    }
}
