import ArgumentParser
import AutomergeKit

extension Minutafs {
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Print the state, heads, history or conflicts of one Automerge document.",
            discussion: """
                By default prints the visible state as typed JSON on one line: maps are objects, \
                lists arrays, text {"_text": ...}, and values JSON has no type for are tagged \
                ({"_ts": ms}, {"_counter": n}, {"_uint": n}, {"_f64": x}, {"_bytes": "hex"}).
                --heads prints the head change hashes, one per line.
                --changes prints one line per change: hash actor seq startOp nOps deps time message.
                --conflicts prints one JSON line per field with concurrent values, winner last.

                Examples:
                  minutafs inspect ~/Dropbox/Minuta/records/2024/03.automerge | jq .
                  minutafs inspect --conflicts ~/Dropbox/Minuta/tags.automerge
                """
        )

        enum View: String, EnumerableFlag {
            case json, heads, changes, conflicts

            static func help(for value: View) -> ArgumentHelp? {
                switch value {
                case .json: "Print the visible state as typed JSON (the default)."
                case .heads: "Print the head change hashes, one per line."
                case .changes: "Print the change history, one line per change."
                case .conflicts: "Print every field that holds concurrent values."
                }
            }
        }

        // Optional rather than defaulting to .json, so that --help names the default once ("the default"), not twice.
        @Flag(help: "What to print.")
        var view: View?

        @Argument(help: ArgumentHelp("The Automerge document to read.", valueName: "document"))
        var file: String

        func run() throws {
            try reportingFailures {
                let document = try DocumentFile.load(atPath: file)
                for line in Self.lines(of: document, view: view ?? .json) {
                    print(line)
                }
            }
        }

        private static func lines(of document: Document, view: View) -> [String] {
            switch view {
            case .json: [document.typedJSON()]
            case .heads: document.heads.map(\.hexString)
            case .changes: document.changeLines()
            case .conflicts: document.conflictLines()
            }
        }
    }
}
