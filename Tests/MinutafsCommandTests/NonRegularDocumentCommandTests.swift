import Foundation
import Testing
import TestSupport

/// SPEC 5b, "No open in the store ever blocks": a FIFO, a Unix socket or a device where a document
/// belongs is a file minutafs cannot read (SPEC 5a). `check`, `merge` and `doc compact` name it and
/// go on; none of them waits on it, and none of them touches it.
struct NonRegularDocumentCommandTests {
    /// A copy of the sample store with a FIFO at January's name, a socket at February's, a device at
    /// March's and `kind` at tags.automerge.
    static func store(in folder: String, tags kind: SpecialFile) throws -> String {
        let store = folder + "/store"
        try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
        let permissions = try runBounded(["chmod", "-R", "u+w", store])
        #expect(permissions.status == 0, "\(permissions.output)")
        try SpecialFile.fifo.replace(store + "/records/2024/01.automerge")
        try SpecialFile.socket.replace(store + "/records/2024/02.automerge")
        try SpecialFile.device.replace(store + "/records/2024/03.automerge")
        try kind.replace(store + "/tags.automerge")
        return store
    }

    /// The documents `store(in:tags:)` replaced, relative to the store.
    static let replaced = ["tags.automerge", "records/2024/01.automerge", "records/2024/02.automerge", "records/2024/03.automerge"]

    /// Runs `minutafs ARGUMENTS`, releasing the store's FIFOs if it hangs on them.
    static func run(_ arguments: [String], store: String) throws -> BoundedRun {
        try runBounded([try MinutafsBinary.path()] + arguments) {
            for name in replaced { SpecialFile.releaseFIFO(at: store + "/" + name) }
        }
    }

    @Test("check names every FIFO, socket and device at a document's name, exits 1, and does not wait on any",
          arguments: SpecialFile.allCases)
    func checkNamesThem(tags: SpecialFile) throws {
        try withTemporaryDirectory { folder in
            let store = try Self.store(in: folder, tags: tags)
            let result = try Self.run(["check", store], store: store)
            #expect(!result.overran, "check hung on a file that is not a regular file: \(result.output)")
            #expect(result.status == 1, "\(result.output)")
            for name in Self.replaced {
                #expect(result.output.contains("\(name): cannot be loaded: it is not a regular file"), "\(name) not named: \(result.output)")
            }
            // An ordinary month is still checked.
            #expect(result.output.contains("month documents checked"), "\(result.output)")
        }
    }

    @Test("merge leaves a conflict copy of a FIFO, socket or device month as it is, naming the file, and does not wait on it",
          arguments: SpecialFile.allCases)
    func mergeNamesThem(tags: SpecialFile) throws {
        try withTemporaryDirectory { folder in
            let store = try Self.store(in: folder, tags: tags)
            let copies = ["01", "02", "03"].map { store + "/records/2024/\($0) (Alice's conflicted copy 2024-01-15).automerge" }
            for copy in copies {
                try FileManager.default.copyItem(atPath: store + "/records/2024/04.automerge", toPath: copy)
            }
            let result = try Self.run(["merge", store], store: store)
            #expect(!result.overran, "merge hung on a file that is not a regular file: \(result.output)")
            #expect(result.status == 1, "\(result.output)")
            for month in ["01", "02", "03"] {
                #expect(result.output.contains("records/2024/\(month).automerge: cannot be loaded: it is not a regular file"), "\(month) not named: \(result.output)")
            }
            for copy in copies { #expect(FileManager.default.fileExists(atPath: copy), "\(copy) was not kept") }
            for name in Self.replaced {
                var info = stat()
                #expect(lstat(store + "/" + name, &info) == 0 && info.st_mode & S_IFMT != S_IFREG, "\(name) was replaced")
            }
        }
    }

    @Test("doc compact of a FIFO, socket or device says it is not a regular file and does not wait on it",
          arguments: ["01", "02", "03"])
    func compactRefuses(month: String) throws {
        try withTemporaryDirectory { folder in
            let store = try Self.store(in: folder, tags: .fifo)
            let path = store + "/records/2024/\(month).automerge"
            let result = try Self.run(["doc", "compact", path, "-o", folder + "/out.automerge"], store: store)
            #expect(!result.overran, "doc compact hung: \(result.output)")
            #expect(result.status == 1, "\(result.output)")
            #expect(result.output.contains(path + ": ") && result.output.contains("not a regular file"), "\(result.output)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/out.automerge"))
        }
    }
}
