import ArgumentParser

@main
struct Minutafs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "minutafs",
        abstract: "Work with the Automerge documents of a Minuta time-tracker store.",
        discussion: """
            minutafs reads and writes the Automerge documents the Minuta app keeps in a synced \
            folder (tags.automerge, records/YYYY/MM.automerge). `minutafs mount` shows a store as \
            JSON and image files that any program can read and edit; every save becomes Automerge \
            operations in the documents, and conflict copies a sync tool leaves are merged.

            Examples:
              minutafs mount ~/Dropbox/Minuta ~/minuta
              minutafs inspect ~/Dropbox/Minuta/records/2024/03.automerge
            """,
        version: "0.1.0",
        subcommands: [Mount.self, Inspect.self, Doc.self, Merge.self, Sync.self, Check.self, Migrate.self, Export.self, Demo.self, Report.self, Log.self, Restore.self, Start.self, Stop.self, Now.self, Continue.self, Track.self, Cancel.self, Annotate.self, Summary.self, Undo.self]
    )

    /// Runs the command the arguments name. `minutafs now`, which a status bar or a prompt runs every few
    /// seconds, is read by `NowArguments` when it is in one of its plain forms: the parser would first
    /// build every option by reflection (see there). Everything else goes to the parser.
    static func main() {
        if let invalid = ArgumentEncoding.firstInvalid() {
            exit(withError: ValidationError(
                "argument \(invalid.position) (\(invalid.shown)) is not valid UTF-8; minutafs takes its arguments, tags, comments and paths included, as UTF-8"))
        }
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == Now.configuration.commandName, let now = NowArguments(arguments.dropFirst()) {
            do {
                try Now.show(now.form, place: now.place)
            } catch {
                exit(withError: error)
            }
            return
        }
        main(nil)
    }

    /// `minutafs` without a command is a usage error (exit status 64, docs/minutafs.1), not help.
    func run() throws {
        throw ValidationError("name a command, such as `minutafs mount STORE MOUNTPOINT`; `minutafs --help` lists them")
    }
}
