import FileTreeInterface
import Foundation
import MinutaFS
import Testing

/// Each save tells the tree what its program read (SPEC 5b: a save is compared with what its writer
/// read): the mount notes every open of a file for reading by the program's thread group, and a save
/// (by a handle, or by a file renamed onto the name) carries the program's read of that path and the
/// file it read last.
@Suite("What a save's program read")
struct SaveOriginTests {
    static let path = InMemoryTree.recordPath

    /// The origin of the one save of `path` the tree got.
    func onlyOrigin(in mounted: MountedTree, sourceLocation: SourceLocation = #_sourceLocation) throws -> SaveOrigin {
        let origins = mounted.tree.origins.filter { $0.path == Self.path }
        #expect(origins.count == 1, "\(origins)", sourceLocation: sourceLocation)
        return try #require(origins.first?.origin, sourceLocation: sourceLocation)
    }

    @Test("sed -i read the record before it renamed its temporary file onto it")
    func sedRead() throws {
        try MountedTree.with { mounted in
            let before = ContinuousClock.now
            let result = try mounted.run("sed", ["-i", "s/planning/reviewing/", mounted.path(Self.path)])
            #expect(result.status == 0, "\(result)")
            let origin = try onlyOrigin(in: mounted)
            let read = try #require(origin.readOfPath, "sed's read of the record was not noted")
            #expect(read > before)
            #expect(origin.lastRead?.path == Self.path)
        }
    }

    @Test("a threaded program that reads on one thread and saves on another is one reader")
    func threadedProgram() throws {
        try MountedTree.with { mounted in
            let script = """
                import sys, threading
                path = sys.argv[1]
                text = []
                reader = threading.Thread(target=lambda: text.append(open(path).read()))
                reader.start(); reader.join()
                def save():
                    with open(path, "w") as f:
                        f.write(text[0].replace("planning", "reviewing"))
                writer = threading.Thread(target=save)
                writer.start(); writer.join()
                """
            let result = try mounted.run("python3", ["-c", script, mounted.path(Self.path)])
            #expect(result.status == 0, "\(result)")
            #expect(try onlyOrigin(in: mounted).readOfPath != nil, "the reading thread's program was not the saving thread's")
        }
    }

    @Test("cp from outside the mount read nothing of it; cp from another file of the mount read that file")
    func copies() throws {
        try MountedTree.with { mounted in
            let outside = FileManager.default.temporaryDirectory.appendingPathComponent("minutafs-origin-\(UUID().uuidString).json").path
            defer { try? FileManager.default.removeItem(atPath: outside) }
            #expect(FileManager.default.createFile(atPath: outside, contents: Data(InMemoryTree.record.replacing("planning", with: "reviewing").utf8)))
            let fromOutside = try mounted.run("cp", [outside, mounted.path(Self.path)])
            #expect(fromOutside.status == 0, "\(fromOutside)")
            #expect(try onlyOrigin(in: mounted) == .unknown)

            let copy = "/records/2024/01/copy.json"
            let toCopy = try mounted.run("cp", [mounted.path(Self.path), mounted.path(copy)])
            #expect(toCopy.status == 0, "\(toCopy)")
            let origin = try #require(mounted.tree.origins.last { $0.path == copy }?.origin)
            #expect(origin.readOfPath == nil)
            #expect(origin.lastRead?.path == Self.path)
        }
    }

    @Test("a read of a status file between the record's read and its save judges nothing: the record stays the last read")
    func statusReadBetween() throws {
        try MountedTree.with { mounted in
            let script = """
                import sys
                record, status = sys.argv[1], sys.argv[2]
                text = open(record).read()
                open(status).read()
                with open(record, "w") as f:
                    f.write(text.replace("planning", "reviewing"))
                """
            let result = try mounted.run("python3", ["-c", script, mounted.path(Self.path), mounted.path("/.minutafs/status")])
            #expect(result.status == 0, "\(result)")
            let origin = try onlyOrigin(in: mounted)
            #expect(origin.readOfPath != nil, "the program's read of the record was not noted")
            #expect(origin.lastRead?.path == Self.path, "\(String(describing: origin.lastRead))")
        }
    }
}
