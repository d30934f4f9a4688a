import ArgumentParser
import AutomergeKit

extension Minutafs {
    struct Doc: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "doc",
            abstract: "Re-save or merge single Automerge documents by hand.",
            discussion: """
                Files are written atomically: a temporary file in the same folder, flushed to \
                disk, then renamed over the destination, so a sync tool never sees half a file.

                Examples (in a store's year folder, records/2024):
                  minutafs doc compact 03.automerge
                  minutafs doc merge -o 03.automerge 03.automerge "03 (1).automerge"
                """,
            subcommands: [Compact.self, Merge.self, SyncFirst.self, SyncServe.self]
        )
    }
}

extension Minutafs.Doc {
    struct Compact: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compact",
            abstract: "Load a document and save it again canonically.",
            discussion: """
                Writes the document as one full save, the way Automerge itself saves: appended \
                change chunks are folded in and the file usually gets smaller. Without -o the \
                input is replaced in place, and left untouched when nothing would change.

                Examples (in a store's year folder, records/2024):
                  minutafs doc compact 03.automerge
                  minutafs doc compact 03.automerge -o ~/03.automerge
                """
        )

        @Argument(help: ArgumentHelp("The Automerge document to compact.", valueName: "document"))
        var input: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Write the result to this file instead of replacing the input.", valueName: "file"))
        var output: String?

        func run() throws {
            try reportingFailures {
                // Replacing a store's document (in place, or with -o): not while a mount (or another command) writes it.
                let lock = try StoreCommandSupport.lockForDocument(atPath: output ?? input)
                try withExtendedLifetime(lock) { () throws(CommandFailure) in
                    let original = try DocumentFile.readBytes(atPath: input)
                    var document = try DocumentFile.load(original, from: input)
                    // Loaded back before it is written: in place, the input is replaced only by a file that loads.
                    let saved = try DocumentFile.loadableSave(of: &document, for: input)
                    if let output {
                        try DocumentFile.write(saved, toPath: output)
                    } else if saved != original {
                        try DocumentFile.write(saved, toPath: input)
                    }
                }
            }
        }
    }

    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Merge several documents into one.",
            discussion: """
                Loads the first input and merges each of the others into it in the order given, \
                then saves the result. Every order gives the same state; the saved bytes list the \
                changes in the order they were merged. The output may be one of the inputs.

                Example (in a store's year folder, records/2024):
                  minutafs doc merge -o 03.automerge 03.automerge "03 (1).automerge"
                """
        )

        @Option(name: .shortAndLong, help: ArgumentHelp("The file to write the merged document to.", valueName: "file"))
        var output: String

        @Argument(help: ArgumentHelp("The documents to merge, at least two.", valueName: "document"))
        var inputs: [String]

        func validate() throws {
            guard inputs.count >= 2 else {
                throw ValidationError("Give at least two documents to merge.")
            }
        }

        func run() throws {
            try reportingFailures {
                // Writing a store's document: not while a mount (or another command) writes it.
                let lock = try StoreCommandSupport.lockForDocument(atPath: output)
                defer { withExtendedLifetime(lock) {} }
                var merged = try DocumentFile.load(atPath: inputs[0])
                for input in inputs.dropFirst() {
                    let other = try DocumentFile.load(atPath: input)
                    do {
                        try merged.merge(other)
                    } catch {
                        throw CommandFailure(path: input, cause: "cannot merge: \(error)")
                    }
                }
                try DocumentFile.write(DocumentFile.loadableSave(of: &merged, for: output), toPath: output)
            }
        }
    }
}
