import Foundation
import Testing
import TestSupport

/// The documentation tells the truth: every shell example of README.md, of both man pages' EXAMPLES
/// and of every `--help` runs as shown, top to bottom, in a sandbox home folder, and succeeds (exit 0),
/// as a reader typing it would see.
///
/// Each fenced `sh` block is run by bash with `set -e -o pipefail` in the sandbox (HOME, TZ=UTC, the
/// built `minutafs` first on PATH), after the markers written just above it in README.md:
/// - `<!-- doctest: skip: REASON -->`: not run; the reason says what a test machine lacks.
/// - `<!-- doctest: before: COMMANDS -->` and `<!-- doctest: after: COMMANDS -->`: run before and after
///   the block (what the text around the block assumes, such as a mounted store).
/// - `<!-- doctest: in: FOLDER -->`: the folder the block runs in (default: the sandbox's work folder).
/// An interactive editor in an example (`vim FILE`) stands for "open this file": the sandbox's `vim`
/// checks that FILE exists.
@Suite(.serialized)
struct DocumentationTests {
    struct Block {
        var line: Int
        var script: String
        var skipReason: String?
        var before: [String] = []
        var after: [String] = []
        var folder: String?
    }

    /// The `sh` blocks of a Markdown text, with their markers.
    static func blocks(ofMarkdown text: String) -> [Block] {
        var blocks: [Block] = []
        var pending = Block(line: 0, script: "")
        var current: Block?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if var block = current {
                if line == "```" {
                    blocks.append(block)
                    current = nil
                    pending = Block(line: 0, script: "")
                } else {
                    block.script += String(rawLine.drop { $0 == " " && rawLine.hasPrefix("  ") }) + "\n"
                    current = block
                }
                continue
            }
            if line.hasPrefix("<!-- doctest: "), line.hasSuffix("-->") {
                let body = line.dropFirst("<!-- doctest: ".count).dropLast(3).trimmingCharacters(in: .whitespaces)
                if body.hasPrefix("skip:") { pending.skipReason = String(body.dropFirst(5)).trimmingCharacters(in: .whitespaces) }
                if body.hasPrefix("before:") { pending.before.append(String(body.dropFirst(7))) }
                if body.hasPrefix("after:") { pending.after.append(String(body.dropFirst(6))) }
                if body.hasPrefix("in:") { pending.folder = String(body.dropFirst(3)).trimmingCharacters(in: .whitespaces) }
                continue
            }
            if line == "```sh" {
                var block = pending
                block.line = index + 1
                current = block
            } else if !line.isEmpty {
                pending = Block(line: 0, script: "")
            }
        }
        return blocks
    }

    /// A sandbox home folder: `bin/vim` (checks its files exist), a work folder, and the environment
    /// the examples run in (the built `minutafs` first on PATH, TZ=UTC, XDG folders inside it).
    struct Sandbox {
        let home: String
        let work: String
        let environment: [String: String]

        init(in folder: String) throws {
            home = folder + "/home"
            work = folder + "/work"
            try FileManager.default.createDirectory(atPath: home + "/bin", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            // vim FILE in an example: the file must be there; an editor needs a person.
            let vim = "#!/bin/sh\nfor file; do test -f \"$file\" || { echo \"vim: no such file: $file\" >&2; exit 1; }; done\n"
            guard FileManager.default.createFile(atPath: home + "/bin/vim", contents: Data(vim.utf8)), chmod(home + "/bin/vim", 0o755) == 0 else {
                throw FixtureError("cannot write \(home)/bin/vim")
            }
            let binaryFolder = URL(fileURLWithPath: try MinutafsBinary.path()).deletingLastPathComponent().path
            environment = [
                "HOME": home, "TZ": "UTC", "LC_ALL": "C.UTF-8",
                "PATH": home + "/bin:" + binaryFolder + ":/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
                "XDG_STATE_HOME": home + "/.local/state", "XDG_CACHE_HOME": home + "/.cache",
                "XDG_CONFIG_HOME": home + "/.config", "XDG_RUNTIME_DIR": "", "MINUTAFS_STORE": "", "COLUMNS": "80",
            ]
        }

        /// Runs `setup` (in the work folder), then `before` and `script` (in `folder`, `~` meaning the
        /// sandbox's home), then `after` (in the work folder) as one bash script that stops at the first
        /// command that fails.
        func run(_ script: String, in folder: String?, setup: [String] = [], before: [String] = [], after: [String] = []) throws -> Shell.Result {
            let text = """
                set -e -o pipefail
                cd \(work)
                \(setup.joined(separator: "\n"))
                cd \(folder.map { $0.replacingOccurrences(of: "~", with: home) } ?? work)
                \(before.joined(separator: "\n"))
                \(script)
                cd \(work)
                \(after.joined(separator: "\n"))
                """
            return try Shell.run("bash -c \(DocumentationTests.quoted(text)) 2>&1", environment: environment)
        }

        /// Takes down every mount left in the sandbox.
        static func unmountAll(in folder: String) {
            _ = try? Shell.run("grep ' \(folder)/' /proc/self/mounts | cut -d' ' -f2 | xargs -r -n1 fusermount3 -u -z")
        }
    }

    @Test("README.md's shell examples run as shown, in order, and succeed")
    func readmeExamples() throws {
        let readme = try String(contentsOfFile: Fixtures.packageRoot + "/README.md", encoding: .utf8)
        let blocks = Self.blocks(ofMarkdown: readme)
        #expect(blocks.count >= 10, "found \(blocks.count) sh blocks")
        for block in blocks where block.skipReason != nil {
            #expect(!(block.skipReason ?? "").isEmpty, "README.md:\(block.line): a skipped example says why")
        }
        try withTemporaryDirectory { folder in
            defer { Sandbox.unmountAll(in: folder) }
            let sandbox = try Sandbox(in: folder)
            for block in blocks where block.skipReason == nil {
                let result = try sandbox.run(block.script, in: block.folder, before: block.before, after: block.after)
                #expect(result.status == 0, "README.md:\(block.line) exited \(result.status):\n\(block.script)\n--- output:\n\(result.output)")
                if result.status != 0 { break }  // the later examples build on this one
            }
        }
    }

    /// The EXAMPLES section of a man page (groff source) as one block: its `.nf` ... `.fi` lines with
    /// groff's escapes undone, and the markers of `.\" doctest: ...` comment lines in the section.
    static func examples(ofManPage source: String) -> Block? {
        guard let start = source.range(of: "\n.SH EXAMPLES\n") else { return nil }
        let rest = source[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n.SH ")?.lowerBound ?? rest.endIndex)]
        var block = Block(line: source[..<start.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).count + 1, script: "")
        var inExample = false
        for rawLine in section.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\(dq", with: "\"")
                .replacingOccurrences(of: "\\e", with: "\\")
            if line.hasPrefix(".\\\" doctest: ") {
                let body = line.dropFirst(".\\\" doctest: ".count).trimmingCharacters(in: .whitespaces)
                if body.hasPrefix("skip:") { block.skipReason = String(body.dropFirst(5)).trimmingCharacters(in: .whitespaces) }
                if body.hasPrefix("before:") { block.before.append(String(body.dropFirst(7))) }
                if body.hasPrefix("after:") { block.after.append(String(body.dropFirst(6))) }
                if body.hasPrefix("in:") { block.folder = String(body.dropFirst(3)).trimmingCharacters(in: .whitespaces) }
            } else if line == ".nf" {
                inExample = true
            } else if line == ".fi" {
                inExample = false
            } else if inExample, !line.isEmpty, !line.hasPrefix(".") {
                block.script += line + "\n"
            }
        }
        return block
    }

    @Test("both man pages' EXAMPLES run as shown and succeed", arguments: ["docs/minutafs.1", "docs/mount.fuse.minutafs.8"])
    func manPageExamples(page: String) throws {
        let source = try String(contentsOfFile: Fixtures.packageRoot + "/" + page, encoding: .utf8)
        let block = try #require(Self.examples(ofManPage: source), "\(page) has no EXAMPLES section")
        #expect(!block.script.isEmpty, "\(page): no example lines")
        if let reason = block.skipReason {
            #expect(!reason.isEmpty, "\(page): a skipped EXAMPLES section says why")
            return
        }
        try withTemporaryDirectory { folder in
            defer { Sandbox.unmountAll(in: folder) }
            let sandbox = try Sandbox(in: folder)
            let result = try sandbox.run(block.script, in: block.folder, setup: block.before, after: block.after)
            #expect(result.status == 0, "\(page) EXAMPLES exited \(result.status):\n\(block.script)\n--- output:\n\(result.output)")
        }
    }

    /// What a command's `--help` examples assume (the store the examples name is always there: the demo
    /// store at ~/Dropbox/Minuta, written with the README's `--now`), and where they run.
    struct Scenario {
        var folder: String?
        var before: [String] = []
        var after: [String] = []
        /// Why the examples cannot run on a test machine (what it lacks), when they cannot.
        var skip: String?
    }

    static let demo = "minutafs demo ~/Dropbox/Minuta --now 2024-11-24T12:00:00Z --timezone UTC >/dev/null && mkdir -p ~/minuta"
    static let mount = "minutafs mount ~/Dropbox/Minuta ~/minuta >/dev/null"
    static let unmount = "fusermount3 -u ~/minuta"
    static let configured = "mkdir -p ~/.config/minutafs && echo \"store = $HOME/minuta\" > ~/.config/minutafs/config"
    static let scenarios: [String: Scenario] = [
        "": Scenario(after: [unmount]),
        "mount": Scenario(after: [unmount]),
        "doc": Scenario(folder: "~/Dropbox/Minuta/records/2024", before: [#"cp 03.automerge "03 (1).automerge""#]),
        "doc compact": Scenario(folder: "~/Dropbox/Minuta/records/2024"),
        "doc merge": Scenario(folder: "~/Dropbox/Minuta/records/2024", before: [#"cp 03.automerge "03 (1).automerge""#]),
        // The demo store has a conflict copy waiting: check lists it (exit 1) until it is merged.
        "check": Scenario(before: ["minutafs merge ~/Dropbox/Minuta >/dev/null"]),
        // A store from before the app used Automerge: the demo store exported to that layout.
        "migrate": Scenario(before: [
            "mv ~/Dropbox/Minuta ~/Dropbox/Minuta.documents && minutafs export ~/Dropbox/Minuta.documents ~/Dropbox/Minuta >/dev/null",
        ]),
        "log": Scenario(before: [mount], after: [unmount]),
        "restore": Scenario(before: [mount], after: [unmount]),
        "start": Scenario(before: [mount, configured], after: [unmount]),
        "stop": Scenario(before: [mount, configured, "minutafs start --at -1h ~/minuta >/dev/null"], after: [unmount]),
        "now": Scenario(before: [mount, configured, "minutafs start ~/minuta >/dev/null"], after: [unmount]),
        "doc sync-first": Scenario(folder: "~/Dropbox/Minuta"),
        "doc sync-serve": Scenario(folder: "~/Dropbox/Minuta/records/2024", before: [": > frames"]),
        "sync": Scenario(skip: "the examples name a USB stick and other machines reached by ssh; SyncCommandTests syncs two stores, also through a stand-in ssh"),
        "continue": Scenario(before: [mount, "minutafs start --tag Work ~/minuta >/dev/null && minutafs stop ~/minuta >/dev/null"], after: [unmount]),
        // The demo store's timer runs since 2024-11-24: a past interval after that would overlap it.
        "track": Scenario(before: [mount, configured, "minutafs stop --all-months --at 2024-11-24T12:00 ~/minuta >/dev/null"], after: [unmount]),
        // The demo store's timer (since 2024-11-24) is seen too: cancel without --id would find two.
        "cancel": Scenario(before: [mount, "minutafs stop --at 2024-11-24T12:00 ~/minuta >/dev/null"], after: [unmount]),
        "annotate": Scenario(before: [mount, configured], after: [unmount]),
        "summary": Scenario(before: [configured]),
        "undo": Scenario(before: [mount], after: [unmount]),
    ]

    /// The example lines of a `--help` text (a line ending in a backslash continues on the next).
    static func examples(ofHelp help: String) -> [String] {
        var lines: [String] = []
        var inExamples = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("Example") { inExamples = true; continue }
            if line.hasPrefix("USAGE:") || (inExamples && line.isEmpty) { inExamples = false }
            guard inExamples else { continue }
            let text = line.trimmingCharacters(in: .whitespaces)
            if let last = lines.last, last.hasSuffix("\\") {
                lines[lines.count - 1] = String(last.dropLast()) + text
            } else {
                lines.append(text)
            }
        }
        return lines
    }

    /// Every command `minutafs --help` lists, with `doc`'s own (`doc compact`), and "" for `minutafs` itself.
    static func commands() throws -> [String] {
        [""] + (try MinutafsBinary.commands())
    }

    @Test("every command's --help examples run as shown and succeed", arguments: (try? commands()) ?? ["(minutafs --help could not be run)"])
    func helpExamples(command: String) throws {
        let help = try MinutafsBinary.run(command.split(separator: " ").map(String.init) + ["--help"], environment: ["COLUMNS": "80"]).outputText
        let examples = Self.examples(ofHelp: help)
        #expect(!examples.isEmpty, "minutafs \(command) --help has no example")
        let scenario = Self.scenarios[command] ?? Scenario()
        if let reason = scenario.skip {
            #expect(!reason.isEmpty)
            return
        }
        try withTemporaryDirectory { folder in
            defer { Sandbox.unmountAll(in: folder) }
            let sandbox = try Sandbox(in: folder)
            let result = try sandbox.run(examples.joined(separator: "\n"), in: scenario.folder,
                                         setup: [Self.demo], before: scenario.before, after: scenario.after)
            #expect(result.status == 0, "minutafs \(command) --help's examples exited \(result.status):\n\(examples.joined(separator: "\n"))\n--- output:\n\(result.output)")
        }
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
