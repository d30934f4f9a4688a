import Foundation
import Testing
import TestSupport

/// The documentation tells the truth: every shell example of README.md runs as shown, top to bottom,
/// in a sandbox home folder, and succeeds (exit 0), as a reader typing it would see.
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

    @Test("README.md's shell examples run as shown, in order, and succeed")
    func readmeExamples() throws {
        let readme = try String(contentsOfFile: Fixtures.packageRoot + "/README.md", encoding: .utf8)
        let blocks = Self.blocks(ofMarkdown: readme)
        #expect(blocks.count >= 10, "found \(blocks.count) sh blocks")
        for block in blocks where block.skipReason != nil {
            #expect(!(block.skipReason ?? "").isEmpty, "README.md:\(block.line): a skipped example says why")
        }
        try withTemporaryDirectory { sandbox in
            let home = sandbox + "/home"
            let work = sandbox + "/work"
            try FileManager.default.createDirectory(atPath: home + "/bin", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            defer { _ = try? Shell.run("grep ' \(sandbox)/' /proc/self/mounts | cut -d' ' -f2 | xargs -r -n1 fusermount3 -u -z") }
            // vim FILE in an example: the file must be there; an editor needs a person.
            let vim = "#!/bin/sh\nfor file; do test -f \"$file\" || { echo \"vim: no such file: $file\" >&2; exit 1; }; done\n"
            #expect(FileManager.default.createFile(atPath: home + "/bin/vim", contents: Data(vim.utf8)))
            #expect(chmod(home + "/bin/vim", 0o755) == 0)
            let binaryFolder = URL(fileURLWithPath: try MinutafsBinary.path()).deletingLastPathComponent().path
            let environment = [
                "HOME": home, "TZ": "UTC", "LC_ALL": "C.UTF-8",
                "PATH": home + "/bin:" + binaryFolder + ":/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
                "XDG_STATE_HOME": home + "/.local/state", "XDG_CACHE_HOME": home + "/.cache",
                "XDG_CONFIG_HOME": home + "/.config", "XDG_RUNTIME_DIR": "", "MINUTAFS_STORE": "",
            ]
            for block in blocks where block.skipReason == nil {
                let folder = block.folder.map { $0.replacingOccurrences(of: "~", with: home) } ?? work
                let script = """
                    set -e -o pipefail
                    cd \(folder)
                    \(block.before.joined(separator: "\n"))
                    \(block.script)
                    cd \(work)
                    \(block.after.joined(separator: "\n"))
                    """
                let result = try Shell.run("bash -c \(Self.quoted(script)) 2>&1", environment: environment)
                #expect(result.status == 0, "README.md:\(block.line) exited \(result.status):\n\(block.script)\n--- output:\n\(result.output)")
                if result.status != 0 { break }  // the later examples build on this one
            }
        }
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
