import Foundation
import Testing
import TestSupport

/// `minutafs-bench` parses its arguments: `--help` and a bad value print usage and start nothing
/// (the scripts in bench/ and BENCHMARKS.md run its subcommands with the same words as before).
struct BenchCommandTests {
    static func bench(_ arguments: [String], in folder: String) throws -> CommandResult {
        try MinutafsBinary.run(arguments, in: folder, executable: MinutafsBinary.benchPath())
    }

    @Test("--help of a subcommand prints its usage and writes nothing", arguments: ["store", "load", "edits", "creates", "merge", "diverge"])
    func help(subcommand: String) throws {
        try withTemporaryDirectory { folder in
            let result = try Self.bench([subcommand, "--help"], in: folder)
            #expect(result.status == 0, "\(result.errorText)")
            #expect(result.outputText.contains("USAGE: minutafs-bench \(subcommand)"), "\(result.outputText)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "it wrote files")
        }
    }

    @Test("a count that is not a number, or a missing argument, is a usage error that writes nothing", arguments: [
        ["store", "out", "ten"], ["store", "out", "1", "many"], ["store"], ["load", "x.automerge"], ["edits", "store", "x"],
    ])
    func usageError(arguments: [String]) throws {
        try withTemporaryDirectory { folder in
            let result = try Self.bench(arguments, in: folder)
            #expect(result.status == 64, "\(result.outputText)\(result.errorText)")
            #expect(result.errorText.contains("Usage:") || result.errorText.contains("USAGE:"), "\(result.errorText)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "it wrote files")
        }
    }

    @Test("store DIR YEARS RECORDS writes a generated store, a year at a time")
    func store() throws {
        try withTemporaryDirectory { folder in
            let result = try Self.bench(["store", "generated", "1", "2"], in: folder)
            #expect(result.status == 0, "\(result.errorText)")
            #expect(result.outputText == "wrote 2016\n")
            #expect(FileManager.default.fileExists(atPath: folder + "/generated/tags.automerge"))
            #expect(FileManager.default.fileExists(atPath: folder + "/generated/records/2016/12.automerge"))
        }
    }

    @Test("load FILE N prints the median, minimum and 99th percentile")
    func load() throws {
        try withTemporaryDirectory { folder in
            let result = try Self.bench(["load", try Fixtures.path("minuta-month.automerge"), "3"], in: folder)
            #expect(result.status == 0, "\(result.errorText)")
            #expect(result.outputText.split(separator: "\n").map { $0.split(separator: " ").first ?? "" } == ["median_us", "min_us", "p99_us"],
                    "\(result.outputText)")
        }
    }

    @Test("without a subcommand, a folder argument gives the engine table over the fixtures in it")
    func engineTable() throws {
        try withTemporaryDirectory { folder in
            try FileManager.default.copyItem(atPath: try Fixtures.path("minuta-tags.automerge"), toPath: folder + "/minuta-tags.automerge")
            let result = try Self.bench([folder], in: folder)
            #expect(result.status == 0, "\(result.errorText)")
            let lines = result.outputText.split(separator: "\n")
            #expect(lines.first?.hasPrefix("engine, release build") == true, "\(result.outputText)")
            #expect(lines.count == 3 && lines[2].hasPrefix("minuta-tags "), "\(result.outputText)")
        }
    }
}
