import ArgumentParser

@main
struct Minutafs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "minutafs",
        abstract: "Work with the Automerge documents of a Minuta time-tracker store.",
        discussion: """
            minutafs reads and writes the Automerge documents the Minuta app keeps in a synced \
            folder (tags.automerge, records/YYYY/MM.automerge). This version can inspect single \
            documents and re-save or merge them by hand; mounting a store as a tree of JSON files \
            comes in a later version.

            Example:
              minutafs inspect ~/Dropbox/Minuta/records/2024/03.automerge
            """,
        version: "0.1.0",
        subcommands: [Mount.self, Inspect.self, Doc.self, Merge.self, Check.self, Migrate.self, Export.self, Demo.self]
    )
}
