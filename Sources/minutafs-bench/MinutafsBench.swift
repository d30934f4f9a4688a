// minutafs-bench: prints timings, never asserts them (see BENCHMARKS.md).
//
//   minutafs-bench [FIXTURES_DIR]    the engine table over the reference fixtures (subcommand `engine`)
//   minutafs-bench load FILE N       load FILE N times in-process
//   minutafs-bench rootkeys FILE N   read the root map's keys of FILE N times without loading it
//   minutafs-bench save FILE N       load once, then save N times
//   minutafs-bench merge A B N       load A and B, then merge B into a copy of A N times
//   minutafs-bench edit FILE N       load once, then N times: change one record field, save
//   minutafs-bench diverge FILE OUT  writes another device's version of a month (one field changed)
//   minutafs-bench scaling           load/save/merge/edit of generated months of 100, 1,000, 10,000 records
//   minutafs-bench store DIR [YEARS] [RECORDS]   writes a generated store (default 10 years x 300 records a month)
//   minutafs-bench edits STORE N     N saves of one record through the store: latency after 100, 1,000, 10,000; memory
//   minutafs-bench creates STORE N   N records created in one month through the store: mean cost per 500
import ArgumentParser
import AutomergeKit
import Foundation
import MinutaStore

@main
struct MinutafsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "minutafs-bench",
        abstract: "Time the engine and the store; prints numbers, asserts nothing (see BENCHMARKS.md).",
        discussion: """
            Without a subcommand, prints the engine table over the reference fixtures.

            Examples:
              minutafs-bench Tests/Fixtures/automerge
              minutafs-bench load Tests/Fixtures/automerge/large-month-1k.automerge 30
              minutafs-bench store /var/tmp/store 2 300
            """,
        subcommands: [Engine.self, Load.self, RootKeys.self, Save.self, Merge.self, Edit.self, Diverge.self,
                      GenerateMonth.self, Scaling.self, GenerateStore.self, Edits.self, Creates.self],
        defaultSubcommand: Engine.self)
}

extension MinutafsBench {
    struct Engine: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load, save and merge times of the reference fixtures (median of 30 runs).")

        @Argument(help: ArgumentHelp("The folder of the reference fixtures.", valueName: "fixtures-dir"))
        var folder = "Tests/Fixtures/automerge"

        func run() {
            let runs = 30
            print("engine, release build, median of \(runs) runs (microseconds)")
            print("document".padding(toLength: 34, withPad: " ", startingAt: 0) + "bytes     load      save      merge-all merge(a+b)")
            for name in ["minuta-tags", "minuta-month", "types", "big-text", "large-month-1k", "large-month-5k", "three-way.merged"] {
                let path = folder + "/" + name + ".automerge"
                guard FileManager.default.fileExists(atPath: path) else { continue }
                let bytes = Measuring.readFile(path)
                let loadTime = Measuring.median(Measuring.measure(runs) { _ = Measuring.load(bytes, path) })
                var document = Measuring.load(bytes, path)
                let saveTime = Measuring.median(Measuring.measure(runs) { _ = Measuring.save(&document) })
                // Every change merged into an empty document (the work of a first sync).
                let mergeAll = Measuring.median(Measuring.measure(runs) { var empty = Document(); try? empty.merge(document) })
                var mergeText = "-"
                let base = String(name.dropLast(".merged".count))
                if name.hasSuffix(".merged"), FileManager.default.fileExists(atPath: folder + "/" + base + ".a.automerge") {
                    let a = Measuring.load(Measuring.readFile(folder + "/" + base + ".a.automerge"), base)
                    let b = Measuring.load(Measuring.readFile(folder + "/" + base + ".b.automerge"), base)
                    mergeText = String(Int(Measuring.median(Measuring.measure(runs) { var copy = a; try? copy.merge(b) }).rounded()))
                }
                print(name.padding(toLength: 34, withPad: " ", startingAt: 0)
                      + String(bytes.count).padding(toLength: 10, withPad: " ", startingAt: 0)
                      + String(Int(loadTime.rounded())).padding(toLength: 10, withPad: " ", startingAt: 0)
                      + String(Int(saveTime.rounded())).padding(toLength: 10, withPad: " ", startingAt: 0)
                      + String(Int(mergeAll.rounded())).padding(toLength: 10, withPad: " ", startingAt: 0) + mergeText)
            }
        }
    }

    struct Load: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Load a document N times in-process.")
        @Argument(help: "An Automerge document.") var file: String
        @Argument(help: "How many runs.") var count: Int

        func run() {
            let bytes = Measuring.readFile(file)
            Measuring.printSamples(Measuring.measure(count) { _ = Measuring.load(bytes, file) })
        }
    }

    struct RootKeys: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rootkeys", abstract: "Read the root map's keys of a document N times without loading it.")
        @Argument(help: "An Automerge document.") var file: String
        @Argument(help: "How many runs.") var count: Int

        func run() {
            let bytes = Measuring.readFile(file)
            Measuring.printSamples(Measuring.measure(count) {
                do { _ = try Document.rootKeysWritten(inFile: bytes) } catch {
                    StoreSaveBenchmark.fail("\(file): \(error)")
                }
            })
        }
    }

    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Load a document once, then save it N times.")
        @Argument(help: "An Automerge document.") var file: String
        @Argument(help: "How many runs.") var count: Int

        func run() {
            var document = Measuring.load(Measuring.readFile(file), file)
            Measuring.printSamples(Measuring.measure(count) { _ = Measuring.save(&document) })
        }
    }

    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Load A and B, then merge B into a copy of A N times.")
        @Argument(help: "The document merged into.") var left: String
        @Argument(help: "The document merged in.") var right: String
        @Argument(help: "How many runs.") var count: Int

        func run() {
            let leftDocument = Measuring.load(Measuring.readFile(left), left)
            let rightDocument = Measuring.load(Measuring.readFile(right), right)
            Measuring.printSamples(Measuring.measure(count) {
                var copy = leftDocument
                try? copy.merge(rightDocument)
            })
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load a month document once, then N times: change one record field, commit, save.")
        @Argument(help: "A month document.") var file: String
        @Argument(help: "How many runs.") var count: Int

        func run() throws {
            var document = Measuring.load(Measuring.readFile(file), file)
            guard let record = Measuring.firstRecord(document) else {
                print("no record map in \(file)")
                throw ExitCode.failure
            }
            var counter: Int64 = 0
            Measuring.printSamples(Measuring.measure(count) {
                counter += 1
                try? document.put(.timestamp(1_700_000_000_000 + counter), forKey: RecordField.endTime.key, in: record)
                document.commit(time: counter)
                _ = Measuring.save(&document)
            })
        }
    }

    struct Diverge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write another device's version of a month: the first record's endTime changed by a new actor.")
        @Argument(help: "A month document.") var file: String
        @Argument(help: "Where to write the other version.") var output: String

        func run() throws {
            var document = Measuring.load(Measuring.readFile(file), file).fork(actor: ActorID(bytes: [UInt8](repeating: 0xB0, count: 16)))
            guard let record = Measuring.firstRecord(document) else { throw ExitCode.failure }
            try? document.put(.timestamp(1_234_567_890_123), forKey: RecordField.endTime.key, in: record)
            document.commit(time: 1_700_000_000)
            Measuring.writeFile(Measuring.save(&document), output)
        }
    }

    struct GenerateMonth: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Write a generated month of RECORDS records (the months `scaling` measures), for bench/engine-ratio.sh.",
            discussion: "Example:\n  minutafs-bench generate 5000 /var/tmp/month-5000.automerge")
        @Argument(help: "How many records.") var records: Int
        @Argument(help: "Where to write the document.") var output: String

        func validate() throws {
            guard records > 0 else { throw ValidationError("RECORDS must be at least 1") }
        }

        func run() throws {
            var generator = MonthGenerator(year: 2024, month: 3, seed: UInt64(records))
            guard var document = try? generator.document(records: records) else { throw ExitCode.failure }
            Measuring.writeFile(Measuring.save(&document), output)
        }
    }

    struct Scaling: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load, save, merge and edit of generated months of 100, 1,000 and 10,000 records.")

        func run() throws {
            print("engine scaling on generated month documents, release build, median of runs (microseconds)")
            print("records   bytes     changes   load      save      merge     edit+save  load/record")
            for count in [100, 1_000, 10_000] {
                var generator = MonthGenerator(year: 2024, month: 3, seed: UInt64(count))
                guard var document = try? generator.document(records: count) else { throw ExitCode.failure }
                let bytes = Measuring.save(&document)
                let runs = count >= 10_000 ? 5 : 20
                let loadTime = Measuring.median(Measuring.measure(runs) { _ = Measuring.load(bytes, "generated") })
                let saveTime = Measuring.median(Measuring.measure(runs) { _ = Measuring.save(&document) })
                // Two replicas that diverged by 20 record edits each.
                var left = document.fork(actor: ActorID(bytes: [UInt8](repeating: 1, count: 16)))
                var right = document.fork(actor: ActorID(bytes: [UInt8](repeating: 2, count: 16)))
                let keys = document.keys(of: .root)
                for (index, key) in keys.prefix(20).enumerated() {
                    if case .object(let record, _)? = left.value(of: .root, key: key) {
                        try? left.put(.timestamp(Int64(index)), forKey: RecordField.endTime.key, in: record)
                        left.commit(time: Int64(index))
                    }
                    if case .object(let record, _)? = right.value(of: .root, key: key) {
                        try? right.put(.string("right \(index)"), forKey: RecordField.tagId.key, in: record)
                        right.commit(time: Int64(index))
                    }
                }
                let mergeTime = Measuring.median(Measuring.measure(runs) { var copy = left; try? copy.merge(right) })
                var edited = document
                guard let record = Measuring.firstRecord(edited) else { throw ExitCode.failure }
                var counter: Int64 = 0
                let editTime = Measuring.median(Measuring.measure(runs) {
                    counter += 1
                    try? edited.put(.timestamp(counter), forKey: RecordField.endTime.key, in: record)
                    edited.commit(time: counter)
                    _ = Measuring.save(&edited)
                })
                let columns = [count, bytes.count, document.changeCount, Int(loadTime), Int(saveTime), Int(mergeTime), Int(editTime)]
                    .map { String($0).padding(toLength: 10, withPad: " ", startingAt: 0) }
                print(columns.joined() + String(format: "%.1f", loadTime / Double(count)))
            }
        }
    }

    struct GenerateStore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "store",
            abstract: "Write a generated store: YEARS years from 2016 of RECORDS records a month, with images.",
            discussion: """
                Example:
                  minutafs-bench store /var/tmp/minutafs-bench/store 2 300
                """)
        @Argument(help: ArgumentHelp("The folder to write the store into.", valueName: "dir")) var folder: String
        @Argument(help: "How many years.") var years = 10
        @Argument(help: "How many records a month.") var records = 300

        func validate() throws {
            guard years >= 1 else { throw ValidationError("YEARS must be at least 1") }
            guard records >= 1 else { throw ValidationError("RECORDS must be at least 1") }
        }

        func run() throws {
            let firstYear = 2016
            var tags = Document(actor: ActorID(bytes: [UInt8](repeating: 9, count: 16)))
            for (index, id) in MonthGenerator.tags.enumerated() {
                if let tag = try? tags.putObject(.map, forKey: id) {
                    try? tags.put(.string("Tag \(index)"), forKey: "name", in: tag)
                    try? tags.put(.string("#4A90D9"), forKey: "color", in: tag)
                    try? tags.put(.timestamp(1_450_000_000_000 + Int64(index) * 1000), forKey: "createdAt", in: tag)
                    try? tags.put(.boolean(false), forKey: "isArchived", in: tag)
                }
            }
            tags.commit(time: 1_450_000_000)
            try? FileManager.default.createDirectory(atPath: folder + "/records", withIntermediateDirectories: true)
            Measuring.writeFile(Measuring.save(&tags), folder + "/" + DocumentName.tagsPath)
            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0xFF, 0xD9]
            for year in firstYear..<(firstYear + years) {
                for month in 1...12 {
                    var generator = MonthGenerator(year: year, month: month, seed: UInt64(year * 100 + month))
                    guard var document = try? generator.document(records: records) else { throw ExitCode.failure }
                    let monthName = month < 10 ? "0\(month)" : "\(month)"
                    let yearFolder = folder + "/records/\(year)"
                    try? FileManager.default.createDirectory(atPath: yearFolder + "/" + monthName, withIntermediateDirectories: true)
                    Measuring.writeFile(Measuring.save(&document), yearFolder + "/" + monthName + ".automerge")
                    for key in document.keys(of: .root) {
                        guard case .object(let record, _)? = document.value(of: .root, key: key),
                              case .object(let images, .list)? = document.value(of: record, key: RecordField.images.key) else { continue }
                        for values in document.elements(of: images) {
                            if case .scalar(.string(let name))? = values.last?.value {
                                Measuring.writeFile(jpeg + Array(key.utf8), yearFolder + "/" + monthName + "/" + name)
                            }
                        }
                    }
                }
                print("wrote \(year)")
            }
        }
    }

    struct Edits: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "N saves of one record through the store: latency after 100, 1,000, 10,000 saves; memory.")
        @Argument(help: "A store folder (a copy: it is written).") var store: String
        @Argument(help: "How many saves.") var count: Int

        func run() { StoreSaveBenchmark.repeatedEdits(storePath: store, count: count) }
    }

    struct Creates: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "N records created in one month through the store: the mean cost of each 500.")
        @Argument(help: "A store folder (a copy: it is written).") var store: String
        @Argument(help: "How many records.") var count: Int

        func run() { StoreSaveBenchmark.creates(storePath: store, count: count) }
    }
}
