import Testing
import TestSupport

/// `--help` and `--version` on every command (SPEC §6).
struct HelpCommandTests {
    @Test("--help describes each command with an example", arguments: [
        (["--help"], "inspect"),
        (["inspect", "--help"], "minutafs inspect --conflicts"),
        (["doc", "--help"], "compact"),
        (["doc", "compact", "--help"], "minutafs doc compact"),
        (["doc", "merge", "--help"], "minutafs doc merge -o"),
        (["--help"], "log"),
        (["log", "--help"], "minutafs log ~/Dropbox/Minuta"),
        (["mount", "--help"], ".minutafs/history"),
        (["--help"], "restore"),
        (["restore", "--help"], "minutafs restore --tag Meeting"),
        (["--help"], "start"),
        (["start", "--help"], "minutafs start --tag Work"),
        (["stop", "--help"], "minutafs stop --at -5m"),
        (["now", "--help"], "minutafs now --json"),
        (["continue", "--help"], "minutafs continue ~/minuta"),
    ] as [([String], String)])
    func help(arguments: [String], mention: String) throws {
        let result = try MinutafsBinary.run(arguments)
        #expect(result.status == 0)
        #expect(result.outputText.contains("USAGE:"))
        #expect(result.outputText.contains(mention))
    }

    @Test("shell completions cover the timer commands", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) throws {
        let result = try MinutafsBinary.run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        for command in ["start", "stop", "now", "continue", "mount"] {
            #expect(result.outputText.contains(command), "\(shell): no \(command)")
        }
    }

    @Test("--version prints the version")
    func version() throws {
        let result = try MinutafsBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.outputText == "0.1.0\n")
    }

    @Test("an unknown command is a usage error, not a crash")
    func unknownCommand() throws {
        let result = try MinutafsBinary.run(["frobnicate"])
        #expect(result.status == 64)
        #expect(result.errorText.contains("Usage") || result.errorText.contains("USAGE"))
    }

    @Test("every usage error exits 64 with the usage on standard error", arguments: [
        ([], "name a command"),
        (["frobnicate"], "frobnicate"),
        (["mount"], "Missing expected argument"),
        (["mount", "/nonexistent/store"], "Missing expected argument"),
        (["check"], "Missing expected argument"),
        (["log"], "Missing expected argument"),
        (["mount", "--bogus", "/nonexistent/store", "/nonexistent/mnt"], "Unknown option '--bogus'"),
        (["check", "/nonexistent/store", "extra"], "Unexpected argument"),
        (["mount", "--timezone", "Mars/Olympus", "/nonexistent/store", "/nonexistent/mnt"], "--timezone Mars/Olympus: unknown time zone"),
        (["report", "--timezone", "Mars/Olympus", "/nonexistent/store"], "--timezone Mars/Olympus: unknown time zone"),
        (["export", "--timezone", "Mars/Olympus", "/nonexistent/store", "/nonexistent/out"], "--timezone Mars/Olympus: unknown time zone"),
        (["migrate", "--timezone", "Mars/Olympus", "/nonexistent/store"], "--timezone Mars/Olympus: unknown time zone"),
        (["demo", "--timezone", "Mars/Olympus", "/nonexistent/demo"], "--timezone Mars/Olympus: unknown time zone"),
    ] as [([String], String)])
    func usageErrors(arguments: [String], mention: String) throws {
        let result = try MinutafsBinary.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.status) \(result.errorText)")
        #expect(result.outputText.isEmpty, "\(arguments): \(result.outputText)")
        #expect(result.errorText.contains(mention), "\(arguments): \(result.errorText)")
        #expect(result.errorText.contains("Usage: minutafs"), "\(arguments): \(result.errorText)")
    }
}
