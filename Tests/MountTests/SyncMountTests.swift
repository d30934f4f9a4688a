import Foundation
import Testing
import TestSupport

/// `minutafs sync` with a mounted store: the mount stays the store's single writer, so what the
/// other side sends is delivered to it as conflict copies it merges, and its view shows them when
/// the sync ends.
@Suite(.serialized)
struct SyncMountTests {
    /// The JSON record files of a month folder (of a mount) holding `text`.
    static func records(in folder: String, containing text: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { name in
            name.hasSuffix(".json") && (FileManager.default.contents(atPath: folder + "/" + name).map { String(decoding: $0, as: UTF8.self).contains(text) } ?? false)
        }
    }

    /// Document conflict copies left anywhere in a store folder.
    static func conflictCopies(in store: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: store).filter { $0.contains("conflicted copy") && $0.contains(".automerge") }
    }

    static func run(_ arguments: [String], state: String) throws -> CommandResult {
        try MinutafsBinary.run(arguments, environment: ["XDG_STATE_HOME": state])
    }

    /// The count after `label` in a sync report ("changed here: 1").
    static func count(_ label: String, in text: String) -> Int? {
        guard let range = text.range(of: label + ": ") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    @Test("a mounted store syncs with an unmounted one, driving or serving: each side's records (a month the mount lacked included) and images reach the other, nothing is lost, a second sync changes nothing",
          arguments: [false, true])
    func mountedStoreSyncs(mountedServes: Bool) throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let laptop = folder + "/laptop"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: laptop)
            try Shell.run("chmod -R u+w '\(laptop)'")
            let state = folder + "/state"
            // The laptop: a record in May, one in March 2025 (a month the mounted store does not have), an image.
            for (comment, at) in [("from the laptop", "2024-05-20T09:00"), ("next year on the laptop", "2025-03-04T10:00")] {
                let started = try Self.run(["start", "--keep", "--timezone", "UTC", "--comment", comment, "--at", at, laptop], state: state)
                try #require(started.status == 0, "\(started.errorText)")
            }
            let image = "records/2024/05/photo from the laptop.jpg"
            try Data("laptop image".utf8).write(to: URL(fileURLWithPath: laptop + "/" + image))
            // The mounted store: a record written through its mount.
            let desk = try Self.run(["start", "--keep", "--timezone", "UTC", "--comment", "from the desktop", "--at", "2024-06-20T09:00", mounted.store], state: state)
            try #require(desk.status == 0, "\(desk.errorText)")
            #expect(!FileManager.default.fileExists(atPath: mounted.store + "/records/2025"))

            // Driving: the store folder names the mounted store; serving: its mount point does.
            let arguments = mountedServes ? ["sync", laptop, mounted.mountPoint] : ["sync", mounted.store, laptop]
            // A dry run says what would change and hands the mount nothing.
            let dry = try Self.run([arguments[0], "--dry-run"] + arguments.dropFirst(), state: state)
            try #require(dry.status == 0, "\(dry.errorText)")
            #expect(Self.count(mountedServes ? "would change there" : "would change here", in: dry.outputText) == 2, "\(dry.outputText)")
            #expect(try Self.conflictCopies(in: mounted.store).isEmpty)
            #expect(Self.records(in: mounted.mountPoint + "/records/2024/05", containing: "from the laptop").isEmpty)

            let result = try Self.run(arguments, state: state)
            try #require(result.status == 0, "\(result.errorText)")
            if !mountedServes {
                #expect(result.outputText.contains("delivered to the mount at \(mounted.mountPoint)"), "\(result.outputText)")
                #expect(result.outputText.contains(", merged"), "\(result.outputText)")
            }

            // The mount shows the laptop's records and image as soon as the sync has ended, and took every copy.
            #expect(Self.records(in: mounted.mountPoint + "/records/2024/05", containing: "from the laptop").count == 1)
            #expect(Self.records(in: mounted.mountPoint + "/records/2025/03", containing: "next year on the laptop").count == 1)
            #expect(Self.records(in: mounted.mountPoint + "/records/2024/06", containing: "from the desktop").count == 1)
            #expect(FileManager.default.contents(atPath: mounted.mountPoint + "/" + image) == Data("laptop image".utf8))
            #expect(try Self.conflictCopies(in: mounted.store).isEmpty)
            #expect(FileManager.default.fileExists(atPath: mounted.store + "/records/2025/03.automerge"))

            // The laptop has the desktop's record; the documents agree.
            let report = try Self.run(["report", laptop, "--month", "2024-06", "--format", "csv", "--timezone", "UTC"], state: state)
            #expect(report.status == 0 && report.outputText.contains("from the desktop"), "\(report.outputText) \(report.errorText)")
            for document in ["records/2024/05.automerge", "records/2024/06.automerge", "records/2025/03.automerge", "tags.automerge"] {
                let here = try MinutafsBinary.run(["inspect", "--heads", mounted.store + "/" + document])
                let there = try MinutafsBinary.run(["inspect", "--heads", laptop + "/" + document])
                #expect(here.status == 0 && there.status == 0 && here.outputText == there.outputText, "\(document)")
            }

            // The mounted store named twice (its folder and its mount point) is one store.
            let itself = try Self.run(["sync", mounted.store, mounted.mountPoint], state: state)
            #expect(itself.status == 1 && itself.errorText.contains("is the same store as"), "\(itself.errorText)")
            // Nothing to do the second time; nothing is delivered.
            let again = try Self.run(arguments, state: state)
            try #require(again.status == 0, "\(again.errorText)")
            #expect(Self.count("changed here", in: again.outputText) == 0 && Self.count("changed there", in: again.outputText) == 0, "\(again.outputText)")
            #expect(!again.outputText.contains("delivered to the mount"), "\(again.outputText)")
            #expect(try Self.conflictCopies(in: mounted.store).isEmpty)
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("a conflict copy delivered to a mounted store just before a sync reaches the other side")
    func waitingCopiesOfMountedStore() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let laptop = folder + "/laptop"
            try FileManager.default.copyItem(atPath: mounted.store, toPath: laptop)
            let state = folder + "/state"
            // A phone's May, delivered while the sync reads: a copy it has not merged yet is read merged.
            let phone = folder + "/phone"
            try FileManager.default.copyItem(atPath: mounted.store, toPath: phone)
            let started = try Self.run(["start", "--keep", "--timezone", "UTC", "--comment", "from the phone", "--at", "2024-05-21T09:00", phone], state: state)
            try #require(started.status == 0, "\(started.errorText)")
            try FileManager.default.copyItem(atPath: phone + "/records/2024/05.automerge",
                                             toPath: mounted.store + "/records/2024/05 (Phone's conflicted copy 2024-05-21).automerge")
            let result = try Self.run(["sync", mounted.store, laptop], state: state)
            try #require(result.status == 0, "\(result.errorText)")
            let report = try Self.run(["report", laptop, "--month", "2024-05", "--format", "csv", "--timezone", "UTC"], state: state)
            #expect(report.outputText.contains("from the phone"), "\(report.outputText) \(report.errorText)")
            #expect(mounted.withinTwoPasses { Self.records(in: mounted.mountPoint + "/records/2024/05", containing: "from the phone").count == 1 })
            #expect(mounted.unmount() == 0)
        }
    }
}
