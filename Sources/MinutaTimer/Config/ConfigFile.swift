/// The minutafs config file (`$XDG_CONFIG_HOME/minutafs/config`, else `~/.config/minutafs/config`),
/// read as TOML reads the keys minutafs uses:
///
/// ```toml
/// # the store the timer commands use when no path is given
/// store = "~/Dropbox/Apps/Minuta"   # a basic string: escapes such as \" \\ \t \u00E9
/// store = '/home/me/My "Minuta"'    # or a literal string: no escapes
/// ```
///
/// Blank lines, `#` comments (after a value too) and spaces around `=` are allowed; keys minutafs does
/// not know, and keys under a `[table]`, are skipped without their values being read. A path written
/// without quotes (`store = /home/me/minuta`, the older form) is taken up to a `#` and trimmed. A
/// leading `~` or `~/` stands for the home folder (not TOML, but what a path in a config means). A
/// malformed line is an error naming its line and column; nothing is guessed.
public struct ConfigFile: Equatable, Sendable {
    /// `store`'s value as written (after unescaping, before `~` is expanded).
    public var store: String?

    public init(store: String? = nil) {
        self.store = store
    }

    /// Parses the file's text; `path` is only for the errors.
    public init(parsing text: String, path: String) throws(ConfigError) {
        var isInTable = false
        var storeLine: Int?
        // TOML's line ends: LF or CRLF (one Character in Swift).
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, line) in lines.enumerated() {
            var reader = ConfigLineReader(line: line, number: index + 1, path: path)
            reader.skipSpaces()
            guard let first = reader.peek(), first != "#" else { continue }
            if first == "[" {
                try reader.readTableHeader()
                isInTable = true
                continue
            }
            let key = try reader.readKey()
            reader.skipSpaces()
            guard reader.peek() == "=" else { throw reader.error("expected `=` after the key \(key.joined(separator: ".")) (a line is `key = value`)") }
            reader.advance()
            reader.skipSpaces()
            guard !isInTable, key == ["store"] else { continue }  // not a key minutafs reads: its value is not read
            if let earlier = storeLine { throw reader.error("store is set twice (first on line \(earlier))") }
            store = try reader.readPathValue()
            storeLine = index + 1
        }
    }

    /// `path` with a leading `~` or `~/` replaced by `home`; any other path as it is.
    public static func expandingHome(_ path: String, home: String?) -> String {
        guard let home, !home.isEmpty, path == "~" || path.hasPrefix("~/") else { return path }
        return home + path.dropFirst()
    }
}
