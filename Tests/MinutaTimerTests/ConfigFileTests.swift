import MinutaTimer
import Testing

/// The config file's `store = ...` read as TOML reads it: each string form, comments, spaces, tables,
/// and a line and column for each malformed line.
@Suite struct ConfigFileTests {
    func store(_ text: String) throws -> String? {
        try ConfigFile(parsing: text, path: "config").store
    }

    func failure(_ text: String) -> ConfigError? {
        do { _ = try ConfigFile(parsing: text, path: "config"); return nil } catch { return error }
    }

    @Test("the forms of a value", arguments: [
        (#"store = "/home/me/Minuta""#, "/home/me/Minuta"),
        ("store=\"/a\"", "/a"),
        ("  \tstore\t =   \"/a b\"   ", "/a b"),
        (#"store = "/a" # the synced folder"#, "/a"),
        (#"store = "/a#b" # a # inside the string is not a comment"#, "/a#b"),
        (#"store = "C:\\Minuta \"quoted\" \t\u00E9\U0001F600""#, "C:\\Minuta \"quoted\" \t\u{E9}\u{1F600}"),
        (#"store = '/home/me/My "Minuta" \no escapes'"#, #"/home/me/My "Minuta" \no escapes"#),
        ("store = '~/Dropbox/Minuta'  # literal", "~/Dropbox/Minuta"),
        ("\"store\" = \"/quoted/key\"", "/quoted/key"),
        ("store = /older/unquoted/form  # comment", "/older/unquoted/form"),
        ("store = \"/windows\"\r\n", "/windows"),
    ])
    func forms(_ line: String, _ expected: String) throws {
        #expect(try store(line) == expected)
    }

    @Test("comments, blank lines, other keys and tables are skipped")
    func skipped() throws {
        let text = """
            # minutafs config

            theme = { not = "read" }
            store = "/top"   # this one
            [other]
            store = "/in a table, not minutafs's"
            """
        #expect(try store(text) == "/top")
        #expect(try store("# nothing set\n\n") == nil)
        #expect(try store("") == nil)
    }

    @Test("malformed lines name their line and column", arguments: [
        ("# ok\nstore \"/a\"", 2, 7, "expected `=`"),
        ("store = \"/a", 1, 9, "unterminated string"),
        ("store = '/a", 1, 9, "unterminated string"),
        ("store = \"/a\" trailing", 1, 14, "unexpected \"t\" after the value"),
        ("store = \"\\q\"", 1, 10, "unknown escape \\q"),
        ("store = \"\\u12\"", 1, 10, "\\u needs 4 hex digits"),
        ("store = \"\\uD800\"", 1, 10, "\\u needs 4 hex digits"),
        ("store =", 1, 8, "no value after `=`"),
        ("store = # nothing", 1, 9, "no value after `=`"),
        ("store = \"\"", 1, 11, "the path is empty"),
        ("store = \"/a\"\nstore = \"/b\"", 2, 9, "store is set twice (first on line 1)"),
        ("store = \"\"\"/a\"\"\"", 1, 9, "multi-line"),
        ("= \"/a\"", 1, 1, "expected a key"),
        ("[table", 1, 1, "unterminated table header"),
    ])
    func malformed(_ text: String, _ line: Int, _ column: Int, _ reason: String) throws {
        let error = try #require(failure(text))
        #expect(error.line == line && error.column == column, "\(error)")
        #expect(error.reason.contains(reason), "\(error)")
        #expect(error.description.hasPrefix("config:\(line):\(column): "))
    }

    @Test("~ is the home folder, only at the start")
    func home() {
        #expect(ConfigFile.expandingHome("~/Minuta", home: "/home/me") == "/home/me/Minuta")
        #expect(ConfigFile.expandingHome("~", home: "/home/me") == "/home/me")
        #expect(ConfigFile.expandingHome("/a/~/b", home: "/home/me") == "/a/~/b")
        #expect(ConfigFile.expandingHome("~other/x", home: "/home/me") == "~other/x")
        #expect(ConfigFile.expandingHome("~/x", home: nil) == "~/x")
    }
}
