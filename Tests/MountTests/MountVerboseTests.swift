import Foundation
import Testing
import TestSupport

/// `minutafs mount --verbose` logs what the mount does with what the sync tool delivers, through
/// swift-log like the other commands; without it, the same work logs nothing.
@Suite(.serialized)
struct MountVerboseTests {
    /// Mounts the sample store with `arguments`, drops a conflict copy of January beside it, waits
    /// until the mount has merged it, and returns the mount's log.
    static func logOfMergingACopy(arguments: [String]) throws -> String {
        var log = ""
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder, arguments: arguments)
            let january = mounted.store + "/records/2024/01.automerge"
            let copy = mounted.store + "/records/2024/01 (conflicted copy 2024-02-01).automerge"
            try FileManager.default.copyItem(atPath: january, toPath: copy)
            #expect(eventually(within: 15) { !FileManager.default.fileExists(atPath: copy) }, "the copy was not merged")
            #expect(mounted.unmount() == 0)
            log = try mounted.text(mounted.log)
        }
        return log
    }

    @Test("--verbose logs each conflict copy merged, as a debug line")
    func verbose() throws {
        let log = try Self.logOfMergingACopy(arguments: ["--verbose"])
        let lines = log.split(separator: "\n").filter { $0.hasPrefix("minutafs: debug: conflict copy") }
        #expect(lines.count == 1, "\(log)")
        #expect(lines.first?.contains("01 (conflicted copy 2024-02-01).automerge") == true, "\(log)")
    }

    @Test("a refused write reaches the log of mount -f, with and without --verbose", arguments: [[], ["--verbose"]] as [[String]])
    func refusalLogged(arguments: [String]) throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder, arguments: arguments)
            let record = mounted.january + "/" + BadInput.recordName
            #expect(BadInputMountTests.save(Array(#"{ "startTime": broken"#.utf8), to: record).errno == EINVAL)
            #expect(mounted.unmount() == 0)
            let log = try mounted.text(mounted.log)
            let lines = log.split(separator: "\n").filter { $0.hasPrefix("minutafs: refused a write: ") }
            #expect(lines.count == 1, "\(log)")
            #expect(lines.first?.hasPrefix("minutafs: refused a write: records/2024/01/\(BadInput.recordName): line 1, column 16: expected a value") == true, "\(log)")
            #expect(lines.first?.hasSuffix("(nothing was changed; see .minutafs/errors)") == true, "\(log)")
        }
    }

    @Test("without --verbose, merging logs no debug line")
    func quiet() throws {
        let log = try Self.logOfMergingACopy(arguments: [])
        #expect(!log.contains("debug:"), "\(log)")
    }
}
