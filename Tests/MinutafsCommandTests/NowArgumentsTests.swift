import Foundation
import Testing
import TestSupport

/// `minutafs now` reads its plain forms itself (`NowArguments`, without building the command tree) and
/// hands everything else to the parser: both must mean the same. An argument list with `--` before the
/// store always goes to the parser, so each form is run both ways and the two runs must print the same.
struct NowArgumentsTests {
    static let forms: [[String]] = [
        [], ["--json"], ["--i3blocks"], ["--format", "{tag} {elapsed} {more}"], ["--format=%c|%s"], ["--format", "waybar"],
        ["--timezone", "Europe/Berlin"], ["--timezone=UTC", "--json"], ["--all-months"], ["--json", "--all-months", "--timezone", "UTC"],
    ]

    @Test("each plain form prints what the parser's reading of it prints, with the same exit status", arguments: forms)
    func sameAsParser(form: [String]) throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/demo-store"
            let environment = ["XDG_STATE_HOME": folder + "/state", "XDG_CONFIG_HOME": folder + "/config"]
            let demo = try MinutafsBinary.run(["demo", store, "--seed", "7", "--now", "2025-06-30T12:00:00Z", "--timezone", "UTC"])
            #expect(demo.status == 0, "\(demo.errorText)")
            let quick = try MinutafsBinary.run(["now"] + form + [store], environment: environment)
            let parsed = try MinutafsBinary.run(["now"] + form + ["--", store], environment: environment)
            #expect(quick.status == parsed.status && quick.outputText == parsed.outputText,
                    "now \(form): \(quick.status) \(quick.outputText) against \(parsed.status) \(parsed.outputText)")
            #expect(!quick.outputText.isEmpty, "the demo store has a running timer: now \(form) printed nothing")
        }
    }

    @Test("what the plain forms do not cover is the parser's: help, two forms at once, an unknown option, a missing value, two paths")
    func parserForms() throws {
        try withTemporaryDirectory { folder in
            let environment = ["XDG_STATE_HOME": folder + "/state", "XDG_CONFIG_HOME": folder + "/config"]
            let help = try MinutafsBinary.run(["now", "--help"], environment: environment)
            #expect(help.status == 0 && help.outputText.contains("USAGE: minutafs now"), "\(help.outputText)")
            for arguments in [["--json", "--i3blocks"], ["--bogus"], ["--timezone", "--json"], ["a", "b"]] {
                let run = try MinutafsBinary.run(["now"] + arguments + [folder], environment: environment)
                #expect(run.status == 64, "now \(arguments): \(run.status) \(run.errorText)")
                #expect(run.errorText.contains("Usage: minutafs now") || run.errorText.contains("USAGE: minutafs now"), "now \(arguments): \(run.errorText)")
            }
        }
    }
}
