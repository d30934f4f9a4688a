import Testing
import TestSupport

/// `--help` and `--version` of migrate, export and demo (SPEC §6).
struct MigrationHelpTests {
    @Test("--help of migrate, export and demo shows an example and the exit statuses", arguments: [
        (["migrate", "--help"], "minutafs migrate ~/Dropbox/Minuta"),
        (["export", "--help"], "minutafs export ~/Dropbox/Minuta"),
        (["demo", "--help"], "minutafs demo ./demo-store"),
        (["help", "migrate"], "--cleanup"),
    ] as [([String], String)])
    func help(arguments: [String], mention: String) throws {
        let result = try MinutafsBinary.run(arguments)
        #expect(result.status == 0)
        #expect(result.outputText.contains("USAGE:"))
        #expect(result.outputText.contains("Example"))
        #expect(result.outputText.contains("Exit status"))
        #expect(result.outputText.contains(mention))
    }

    @Test("--version works on every subcommand", arguments: ["migrate", "export", "demo"])
    func version(command: String) throws {
        let result = try MinutafsBinary.run([command, "--version"])
        #expect(result.status == 0)
        #expect(result.outputText == "0.1.0\n")
    }
}
