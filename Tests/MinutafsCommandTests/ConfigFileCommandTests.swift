import Foundation
import Testing
import TestSupport

/// The timer commands' default store from `$XDG_CONFIG_HOME/minutafs/config`, read as TOML (quotes,
/// `~`, comments), and a malformed line named by its line and column (ConfigFileTests has each form).
@Suite struct ConfigFileCommandTests {
    static func run(config: String, in folder: String, _ arguments: [String]) throws -> CommandResult {
        try FileManager.default.createDirectory(atPath: folder + "/.config/minutafs", withIntermediateDirectories: true)
        try Data(config.utf8).write(to: URL(fileURLWithPath: folder + "/.config/minutafs/config"))
        return try MinutafsBinary.run(arguments, environment: ["HOME": folder, "XDG_CONFIG_HOME": folder + "/.config", "MINUTAFS_STORE": ""])
    }

    @Test("a quoted path with ~ and a comment after it names the store", arguments: [
        "# minutafs\nstore = \"~/My Store\"   # the synced folder\n",
        "store = '~/My Store'\n",
        "[other]\nx = 1\n",  // not set under a table: no default
    ])
    func configured(config: String) throws {
        try withTemporaryDirectory { folder in
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: folder + "/My Store")
            let result = try Self.run(config: config, in: folder, ["now", "--json"])
            if config.contains("store") {
                #expect(result.status == 0 && result.outputText.hasPrefix(#"{"text": "#), "\(result.outputText)\(result.errorText)")
            } else {
                #expect(result.status == 1 && result.errorText.contains("which store?"), "\(result.errorText)")
            }
        }
    }

    @Test("a malformed line stops the command, naming the file, line and column")
    func malformed() throws {
        try withTemporaryDirectory { folder in
            let result = try Self.run(config: "# minutafs\nstore = \"~/minuta\n", in: folder, ["now"])
            #expect(result.status == 1)
            #expect(result.errorText == "minutafs: \(folder)/.config/minutafs/config:2:9: unterminated string (no closing \")\n", "\(result.errorText)")
        }
    }
}
