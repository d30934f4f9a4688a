import Foundation
import Testing
import TestSupport

/// The shell completions: bash's completion function, as bash-completion would call
/// it on Tab, offers the demo store's tag names for `--tag` (read from the store the command line
/// names, else the configured one) and the forms of `--at`; zsh's and fish's scripts call back into
/// minutafs for `--tag` too.
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

    @Test("zsh and fish call back into minutafs for --tag", arguments: ["zsh", "fish"])
    func otherShells(shell: String) throws {
        let script = try MinutafsBinary.run(["--generate-completion-script", shell])
        #expect(script.status == 0)
        #expect(script.outputText.contains("---completion start -- --tag"), "\(shell)")
    }
}
