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

    /// The subcommands `minutafs --help` lists, with `doc`'s own (`doc compact`, `doc merge`).
    static func commands() throws -> [String] {
        func subcommands(_ arguments: [String]) throws -> [String] {
            let help = try MinutafsBinary.run(arguments + ["--help"]).outputText
            guard let list = help.range(of: "SUBCOMMANDS:\n") else { return [] }
            return help[list.upperBound...].split(separator: "\n").compactMap { line in
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { return nil }
                return String(name)
            }.filter { $0 != "See" }
        }
        return try subcommands([]).flatMap { name in
            let inner = try subcommands([name])
            return inner.isEmpty ? [name] : inner.map { "\(name) \($0)" }
        }
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
