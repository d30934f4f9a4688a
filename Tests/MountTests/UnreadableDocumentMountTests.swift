import AutomergeKit
import Crypto
import Foundation
import Testing
import TestSupport

/// SPEC 5a through a real mount: a sync tool replaces month documents with files that do not load
/// (cut short, empty, a newer format, ...). Each file keeps its bytes, edits of its month fail with
/// EROFS while other writes work, status, errors and `minutafs check` name it, the mount's own saves
/// are kept in a conflict copy, and a readable version makes the month writable again with both
/// sides' changes.
@Suite(.serialized)
struct UnreadableDocumentMountTests {
    /// One replacement per month of app-2024, so one mount tries them all at once.
    enum Replacement: CaseIterable {
        case cutAfterOneByte, cutInHeader, cutAfterHeader, cutInHalf, cutLastByte
        case empty, unknownChunkAfterDocument, changeWithMissingDependency, bitFlipWithChecksum, randomBytes
        case directory, noPermission

        /// The bytes that replace `original` (nil: a directory takes the file's place).
        func bytes(from original: [UInt8]) throws -> [UInt8]? {
            switch self {
            case .cutAfterOneByte: return Array(original.prefix(1))
            case .cutInHeader: return Array(original.prefix(7))
            case .cutAfterHeader: return Array(original.prefix(12))
            case .cutInHalf: return Array(original.prefix(original.count / 2))
            case .cutLastByte: return Array(original.dropLast())
            case .empty: return []
            case .unknownChunkAfterDocument: return original + Self.chunk(type: 7, body: Array("from a newer app".utf8))
            case .changeWithMissingDependency:
                var later = try Document.load(original).fork()
                try later.put(.string("one"), forKey: "first")
                _ = try later.save()
                try later.put(.string("two"), forKey: "second")
                return original + later.saveIncremental()
            case .bitFlipWithChecksum:
                var flipped = original
                flipped[flipped.count / 2] ^= 0x10
                let body = Array(flipped[8...])
                flipped.replaceSubrange(4..<8, with: Array(SHA256.hash(data: body)).prefix(4))
                return flipped
            case .randomBytes:
                var generator = SplitMix(seed: 11)
                return (0..<3000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            case .directory: return nil
            case .noPermission: return original
            }
        }

        /// A chunk: magic bytes, checksum (first 4 bytes of SHA-256 of type, length and body), type, length, body.
        static func chunk(type: UInt8, body: [UInt8]) -> [UInt8] {
            let typed = [type, UInt8(body.count)] + body
            return [0x85, 0x6f, 0x4a, 0x83] + Array(SHA256.hash(data: typed)).prefix(4) + typed
        }
    }

    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Sets a record file's comment through the mount with Python (an ordinary `open('w')` save);
    /// returns the errno the save failed with, 0 on success.
    func saveComment(_ comment: String, in file: String) throws -> Int32 {
        let script = """
            import json, sys
            path = sys.argv[1]
            record = json.load(open(path))
            record["comment"] = sys.argv[2]
            try:
                with open(path, "w") as f:
                    f.write(json.dumps(record, indent=2) + "\\n")
            except OSError as e:
                print(e.errno)
                sys.exit(0)
            print(0)
            """
        let result = try Shell.run("python3 -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))' '\(file)' '\(comment)'")
        return Int32(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    func status(_ mounted: MountedStore) -> String { (try? mounted.text(mounted.mountPoint + "/.minutafs/status")) ?? "" }

    func synchronizationPasses(_ mounted: MountedStore) -> Int {
        status(mounted).split(separator: "\n").first { $0.hasPrefix("synchronization passes: ") }
            .flatMap { Int($0.dropFirst("synchronization passes: ".count)) } ?? 0
    }

    func firstRecord(in folder: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        return folder + "/" + (try #require(names.first))
    }

    @Test("every kind of unreadable replacement: bytes kept, EROFS, named, held saves copied, readable version merged")
    func replacementTable() throws {
        try withTemporaryDirectory { folder in
            // Without the capability to override file permissions, so a mode-000 file cannot be read (as for any user).
            let mounted = try MountedStore(in: folder, environment: ["XDG_STATE_HOME": folder + "/state"],
                                           wrapper: ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"])
            let cases = Array(zip(Replacement.allCases, (1...12).map { String(format: "%02d", $0) }))
            let binary = try MinutafsBinary.path()

            // 1. The mount saves an edit in every month (so it holds changes the later files may lack).
            for (replacement, month) in cases {
                let file = try firstRecord(in: mounted.mountPoint + "/records/2024/" + month)
                #expect(try saveComment("saved by the mount in \(month)", in: file) == 0, "\(replacement)")
            }

            // 2. The sync tool replaces each month's document with something that does not load.
            var originals: [String: [UInt8]] = [:]
            var replaced: [String: [UInt8]?] = [:]
            for (replacement, month) in cases {
                let path = mounted.store + "/records/2024/\(month).automerge"
                let original = try Fixtures.contents(ofFileAtPath: path)
                originals[month] = original
                let bytes = try replacement.bytes(from: original)
                replaced[month] = bytes
                if let bytes {
                    if replacement != .noPermission, replacement != .empty {
                        // Either it does not load, or changes in it wait for dependencies it lacks.
                        let usable = (try? Document.load(bytes)).map { !$0.hasPendingChanges } ?? false
                        #expect(!usable, "\(replacement) must not load")
                    }
                    let temporary = mounted.store + "/records/2024/.syncthing.\(month).tmp"
                    try Data(bytes).write(to: URL(fileURLWithPath: temporary))
                    if replacement == .noPermission { #expect(chmod(temporary, 0) == 0) }
                    #expect(rename(temporary, path) == 0)
                } else {
                    try FileManager.default.removeItem(atPath: path)
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                }
            }
            func unchanged(_ month: String) -> Bool {
                let path = mounted.store + "/records/2024/\(month).automerge"
                guard let expected = replaced[month] ?? nil else {
                    var isDirectory: ObjCBool = false
                    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
                }
                return (try? Fixtures.contents(ofFileAtPath: path)) == expected
            }

            // The mount's saves are beside each file after its next two passes.
            let copiedInTime = mounted.withinTwoPasses {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: mounted.store + "/records/2024")) ?? []
                return cases.allSatisfy { _, month in names.contains { $0.hasPrefix("\(month) (minutafs conflicted copy ") } }
            }
            #expect(copiedInTime, "not every month's conflict copy was written by the next two passes")

            // 3. The mount notices every one, and several passes later has written none of them.
            #expect(eventually(within: 15) { status(mounted).contains("unreadable documents: 12") }, "\(status(mounted))")
            let passes = synchronizationPasses(mounted)
            #expect(eventually(within: 15) { synchronizationPasses(mounted) >= passes + 2 })
            for (replacement, month) in cases {
                #expect(unchanged(month), "\(replacement): \(month).automerge changed")
                #expect(status(mounted).contains("records/2024/\(month).automerge: cannot be loaded"), "\(replacement)")
            }
            #expect(status(mounted).contains("newer Automerge format"))
            let errors = try mounted.text(mounted.mountPoint + "/.minutafs/errors")
            // As any user runs it: without overriding file permissions.
            let check = try Shell.run("setpriv --bounding-set=-dac_override,-dac_read_search -- '\(binary)' check '\(mounted.store)'")
            #expect(check.status == 1)
            for (replacement, month) in cases {
                #expect(errors.contains("records/2024/\(month).automerge: cannot be loaded"), "\(replacement)")
                #expect(check.output.contains("records/2024/\(month).automerge: cannot be loaded"), "\(replacement): \(check.output)")
            }

            // 4. The mount's own saves are in a conflict copy beside each file.
            for (replacement, month) in cases {
                let copies = try FileManager.default.contentsOfDirectory(atPath: mounted.store + "/records/2024")
                    .filter { $0.hasPrefix("\(month) (minutafs conflicted copy ") }
                #expect(copies.count == 1, "\(replacement): \(copies)")
                guard let copy = copies.first else { continue }
                let shown = try Shell.run("'\(binary)' inspect '\(mounted.store)/records/2024/\(copy)'").output
                #expect(shown.contains("saved by the mount in \(month)"), "\(replacement)")
            }

            // 5. Edits of those months fail with EROFS and change nothing; other writes work.
            for (replacement, month) in cases {
                let file = try firstRecord(in: mounted.mountPoint + "/records/2024/" + month)
                #expect(try saveComment("refused", in: file) == EROFS, "\(replacement)")
                #expect(unchanged(month), "\(replacement): changed by an edit attempt")
            }
            let tags = try mounted.text(mounted.mountPoint + "/tags.json")
            try Data(tags.replacingOccurrences(of: "\"name\": \"", with: "\"name\": \"Still writable ").utf8)
                .write(to: URL(fileURLWithPath: mounted.mountPoint + "/tags.json"))
            #expect(try mounted.text(mounted.mountPoint + "/tags.json").contains("Still writable "))

            // 6. A readable version comes back, holding a change the mount lacks: merged, writable again,
            //    both sides' changes in the document, the conflict copy merged and gone.
            for (_, month) in cases {
                let path = mounted.store + "/records/2024/\(month).automerge"
                var device = try #require(originals[month].map { try Document.load($0) }).fork()
                try device.put(.string("phone \(month)"), forKey: "phoneNote")
                let temporary = mounted.store + "/records/2024/.syncthing.\(month).tmp"
                try Data(device.save()).write(to: URL(fileURLWithPath: temporary))
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                    try FileManager.default.removeItem(atPath: path)
                }
                #expect(rename(temporary, path) == 0)
            }
            #expect(eventually(within: 15) { status(mounted).contains("unreadable documents: 0") }, "\(status(mounted))")
            #expect(eventually(within: 15) {
                ((try? FileManager.default.contentsOfDirectory(atPath: mounted.store + "/records/2024")) ?? [])
                    .allSatisfy { !$0.contains("minutafs conflicted copy") }
            })
            for (replacement, month) in cases {
                let file = try firstRecord(in: mounted.mountPoint + "/records/2024/" + month)
                #expect(try saveComment("writable again \(month)", in: file) == 0, "\(replacement)")
                let onDisk = try Document.load(Fixtures.contents(ofFileAtPath: mounted.store + "/records/2024/\(month).automerge"))
                #expect(onDisk.value(of: .root, key: "phoneNote") == .scalar(.string("phone \(month)")), "\(replacement)")
                let shown = try Shell.run("'\(binary)' inspect '\(mounted.store)/records/2024/\(month).automerge'").output
                #expect(shown.contains("writable again \(month)"), "\(replacement)")
            }
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("the same files given to every command: reported, exit 1, bytes unchanged")
    func commandsLeaveUnreadableFilesAlone() throws {
        let binary = try MinutafsBinary.path()
        for replacement in Replacement.allCases where replacement != .noPermission {
            try withTemporaryDirectory { folder in
                let store = folder + "/store"
                try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
                try Shell.run("chmod -R u+w '\(store)'")
                let path = store + "/records/2024/04.automerge"
                let original = try Fixtures.contents(ofFileAtPath: path)
                // A conflict copy waiting beside it, so `merge` has something it must not do.
                try Data(original).write(to: URL(fileURLWithPath: store + "/records/2024/04 (Bob's conflicted copy 2024-05-01).automerge"))
                let bytes = try replacement.bytes(from: original)
                if let bytes {
                    try Data(bytes).write(to: URL(fileURLWithPath: path))
                } else {
                    try FileManager.default.removeItem(atPath: path)
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                }
                func unchanged() -> Bool {
                    guard let bytes else { return (try? FileManager.default.contentsOfDirectory(atPath: path)) == [] }
                    return (try? Fixtures.contents(ofFileAtPath: path)) == bytes
                }
                let environment = ["XDG_STATE_HOME": folder + "/state"]
                let runs: [(String, String)] = [
                    ("check", "'\(binary)' check '\(store)'"),
                    ("merge", "'\(binary)' merge '\(store)'"),
                    ("export", "'\(binary)' export '\(store)' '\(folder)/export'"),
                    ("migrate", "'\(binary)' migrate '\(store)'"),
                    ("doc compact", "'\(binary)' doc compact '\(path)'"),
                    ("doc merge", "'\(binary)' doc merge -o '\(path)' '\(store)/records/2024/04 (Bob'\\''s conflicted copy 2024-05-01).automerge' '\(store)/records/2024/04 (Bob'\\''s conflicted copy 2024-05-01).automerge'"),
                ]
                for (name, command) in runs {
                    let result = try Shell.run(command, environment: environment)
                    // migrate on a migrated store has nothing to do: it must only not touch the file.
                    if name != "migrate" {
                        #expect(result.status == 1, "\(replacement) \(name): \(result.output)")
                        #expect(result.output.contains("04.automerge"), "\(replacement) \(name): \(result.output)")
                    }
                    #expect(unchanged(), "\(replacement) \(name) changed the file")
                }
                #expect(FileManager.default.fileExists(atPath: store + "/records/2024/04 (Bob's conflicted copy 2024-05-01).automerge"))
            }
        }
    }

    @Test("a second mount of a mounted store, and a mount on a busy mount point: exit 1, a clear message, the first keeps working")
    func secondMount() throws {
        try withTemporaryDirectory { folder in
            let environment = ["XDG_STATE_HOME": folder + "/state"]
            let mounted = try MountedStore(in: folder, environment: environment)
            let binary = try MinutafsBinary.path()
            try FileManager.default.createDirectory(atPath: folder + "/second", withIntermediateDirectories: false)
            let second = try Shell.run("'\(binary)' mount '\(mounted.store)' '\(folder)/second'", environment: environment)
            #expect(second.status == 1)
            #expect(second.output.contains("the store is in use: mounted at \(mounted.mountPoint)"), "\(second.output)")
            #expect(!second.output.contains("mounted \(folder)/second"))
            #expect(!MountedStore.isMounted(folder + "/second"))

            // Another store on the same (busy) mount point.
            let other = folder + "/other"
            try FileManager.default.copyItem(atPath: mounted.store, toPath: other)
            let busy = try Shell.run("'\(binary)' mount '\(other)' '\(mounted.mountPoint)'", environment: environment)
            #expect(busy.status == 1, "\(busy.output)")
            #expect(!busy.output.contains("mounted \(mounted.mountPoint) (pid"), "\(busy.output)")

            // `merge` on the mounted store changes nothing and says why.
            let merge = try Shell.run("'\(binary)' merge '\(mounted.store)'", environment: environment)
            #expect(merge.status == 1)
            #expect(merge.output.contains("the store is in use"), "\(merge.output)")

            // So do `migrate` and an in-place `doc compact` of one of its documents.
            let migrate = try Shell.run("'\(binary)' migrate '\(mounted.store)'", environment: environment)
            #expect(migrate.status == 1 && migrate.output.contains("the store is in use"), "\(migrate.output)")
            let document = mounted.store + "/records/2024/01.automerge"
            let before = try Fixtures.contents(ofFileAtPath: document)
            let compact = try Shell.run("'\(binary)' doc compact '\(document)'", environment: environment)
            #expect(compact.status == 1 && compact.output.contains("the store is in use"), "\(compact.output)")
            #expect(try Fixtures.contents(ofFileAtPath: document) == before)

            // The first mount still works.
            let file = try firstRecord(in: mounted.mountPoint + "/records/2024/01")
            #expect(try saveComment("first mount still works", in: file) == 0)
            #expect(try mounted.text(file).contains("first mount still works"))
            #expect(mounted.unmount() == 0)
        }
    }
}
