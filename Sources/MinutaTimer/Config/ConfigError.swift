/// Why the config file (`$XDG_CONFIG_HOME/minutafs/config`) could not be read: the file, the line and
/// column (from 1), and what is wrong there.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int
    public var reason: String

    public init(path: String, line: Int, column: Int, reason: String) {
        self.path = path
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `~/.config/minutafs/config:3:9: unterminated string (no closing ")`, as compilers say it.
    public var description: String { "\(path):\(line):\(column): \(reason)" }
}
