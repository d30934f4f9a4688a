import Foundation
import Testing
import TestSupport

/// docs/minutafs.1 and `--help` name every command and every special file of a mount (SPEC §6).
struct ManPageTests {
    /// What a mount shows besides the records' folders: each is described in the man page and in
    /// `minutafs mount --help`.
    static let specialFiles = [
        "tags.json", "records/", "reports/", ".minutafs/status", ".minutafs/errors", ".minutafs/conflicts",
        ".minutafs/rejected/", ".minutafs/history/",
    ]

    /// The man page's source with the escapes of hyphens and font changes undone.
    static func manPage() throws -> String {
        try String(contentsOfFile: Fixtures.packageRoot + "/docs/minutafs.1", encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
            .replacingOccurrences(of: "\\fB", with: "").replacingOccurrences(of: "\\fR", with: "").replacingOccurrences(of: "\\fI", with: "")
    }

    /// The text of the man page's section `name` (from `.SH name` to the next `.SH`).
    static func section(_ name: String, of page: String) -> String {
        guard let start = page.range(of: "\n.SH \(name)\n") else { return "" }
        let rest = page[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n.SH ")?.lowerBound ?? rest.endIndex)])
    }

    /// The commands `minutafs --help` lists, a command with subcommands (`doc`) by its subcommands only.
    static func commands() throws -> [String] {
        let all = try MinutafsBinary.commands()
        return all.filter { command in !all.contains { $0.hasPrefix(command + " ") } }
    }

    @Test("the man page's synopsis and COMMANDS section have every command --help lists")
    func everyCommand() throws {
        let page = try Self.manPage()
        let commands = try Self.commands()
        #expect(commands.count >= 12, "\(commands)")
        let synopsis = Self.section("SYNOPSIS", of: page)
        let described = Self.section("COMMANDS", of: page)
        for command in commands {
            #expect(synopsis.contains(".B minutafs \(command)"), "SYNOPSIS lacks minutafs \(command)")
            #expect(described.contains(".TP\n.B \(command)") || described.contains(", \(command)\n"), "COMMANDS lacks \(command)")
        }
    }

    @Test("the man page and minutafs mount --help describe every special file and folder of a mount", arguments: specialFiles)
    func everySpecialFile(name: String) throws {
        #expect(try Self.manPage().contains(name), "the man page does not mention \(name)")
        let help = try MinutafsBinary.run(["mount", "--help"])
        #expect(help.outputText.contains(name), "minutafs mount --help does not mention \(name)")
    }

    @Test("each special folder has a section of its own in the man page", arguments: ["Reports", "Rejected writes", "History"])
    func specialFolderSections(title: String) throws {
        #expect(try Self.manPage().contains("\n.SS \(title)\n"))
    }

    @Test("--help of every command reads as prose: no run of spaces inside a line, no default named twice")
    func helpProse() throws {
        for command in try [""] + Self.commands() {
            let arguments = command.split(separator: " ").map(String.init) + ["--help"]
            let help = try MinutafsBinary.run(arguments)
            #expect(help.status == 0)
            let prose = help.outputText.components(separatedBy: "USAGE:").first ?? ""
            for line in prose.split(separator: "\n") {
                let text = line.drop { $0 == " " }
                #expect(!text.contains("  "), "minutafs \(command) --help: \"\(line)\"")
            }
            #expect(!help.outputText.contains("(the default)") || !help.outputText.contains("(default: --"),
                    "minutafs \(command) --help names its default twice")
        }
    }
}

/// The man page's SYNOPSIS and `--help` say the same about every command's options, and `--help`
/// examples can be copied as they print at 80 columns.
struct ManPageSynopsisTests {
    /// The options (`--tag`, `-f`) named in `text`, without `--help` and `--version`.
    static func options(in text: String) -> Set<String> {
        let pattern = #/(^|[^A-Za-z0-9_-])(--?[A-Za-z][A-Za-z0-9-]*)/#
        return Set(text.matches(of: pattern).map { String($0.output.2) }).subtracting(["--help", "-h", "--version"])
    }

    /// The SYNOPSIS lines of `command` (from each `.B minutafs COMMAND` line to its `.br`), joined.
    static func synopsis(of command: String, in page: String) -> String {
        let lines = ManPageTests.section("SYNOPSIS", of: page).split(separator: "\n", omittingEmptySubsequences: false)
        var text = ""
        var inCommand = false
        for line in lines {
            if line.hasPrefix(".B minutafs ") {
                let rest = line.dropFirst(".B minutafs ".count)
                inCommand = rest == command || rest.hasPrefix(command + " ")
                if inCommand { text += " " + rest.dropFirst(command.count) }
                continue
            }
            if line == ".br" { inCommand = false }
            if inCommand { text += " " + line }
        }
        return text
    }

    /// Each option of `--help`'s OPTIONS section with its other spellings (`["-o", "--output"]`).
    static func optionGroups(inHelp help: String) -> [Set<String>] {
        guard let start = help.range(of: "\nOPTIONS:\n") else { return [] }
        return help[start.upperBound...].split(separator: "\n").compactMap { line -> Set<String>? in
            guard line.hasPrefix("  -") else { return nil }
            let names = line.dropFirst(2).prefix { $0 != " " || true }.split(separator: " ").prefix { $0.hasPrefix("-") }
            let group = Set(names.map { String($0.hasSuffix(",") ? $0.dropLast() : $0) }).subtracting(["--help", "-h", "--version"])
            return group.isEmpty ? nil : group
        }
    }

    @Test("the man page's SYNOPSIS names exactly the options each command's --help lists")
    func synopsisMatchesHelp() throws {
        let page = try ManPageTests.manPage()
        for command in try ManPageTests.commands() {
            let help = try MinutafsBinary.run(command.split(separator: " ").map(String.init) + ["--help"]).outputText
            let groups = Self.optionGroups(inHelp: help)
            let fromPage = Self.options(in: Self.synopsis(of: command, in: page))
            let missing = groups.filter { $0.isDisjoint(with: fromPage) }.map { $0.sorted().joined(separator: "/") }
            let unknown = fromPage.filter { name in !groups.contains { $0.contains(name) } }
            #expect(missing.isEmpty && unknown.isEmpty,
                    "minutafs \(command): the man page's SYNOPSIS lacks \(missing.sorted()) and names \(unknown.sorted()), which --help does not")
        }
    }

    @Test("every --help example line prints whole at 80 columns (none split onto a line of its own)")
    func examplesFitEightyColumns() throws {
        for command in try [""] + ManPageTests.commands() {
            let arguments = command.split(separator: " ").map(String.init) + ["--help"]
            let help = try MinutafsBinary.run(arguments, environment: ["COLUMNS": "80"]).outputText
            var inExamples = false
            for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("Example") { inExamples = true; continue }
                if line.hasPrefix("USAGE:") || (inExamples && line.isEmpty) { inExamples = false }
                guard inExamples else { continue }
                // An example starts at two spaces; its continuation (after a backslash) at six.
                let indent = line.prefix { $0 == " " }.count
                #expect(indent == 2 || indent == 6, "minutafs \(command) --help, a split example line: \"\(line)\"")
                #expect(line.count <= 80, "minutafs \(command) --help, an example past 80 columns: \"\(line)\"")
            }
        }
    }
}
