import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// A save is judged by what its writer read (SPEC 5b), through a real mount: the phone changes a
/// record's `endTime`, the sync tool delivers it, the mount merges and shows it. A script that read the
/// record before and writes its old content back keeps the phone's value, and the value it saved is
/// listed (conflicts, the log, `minutafs log`); a person who reads the record afterwards and sets the old
/// value back (vim after `:e!`, `sed -i`, Python with `fsync`, after an intermediate edit too) gets it;
/// `minutafs restore` and `cp` from history always apply; a program that never read the record
/// (`cp` from elsewhere) applies and the merged value it replaced is listed.
@Suite(.serialized) struct StaleSaveMountTests {
    static let phoneEnd = "2024-01-03T09:00:00Z"
    /// A day after every change of the sample store, before the phone's change (made now).
    static let snapshotDay = "2025-01-01"

    /// Writes `store`'s January with the record's `endTime` set to `phoneEnd` by another device into
    /// `folder/phone.automerge` (to be delivered later).
    static func phoneDocument(from store: String, folder: String) throws -> String {
        let device = folder + "/phone"
        try FileManager.default.createDirectory(atPath: device + "/records/2024", withIntermediateDirectories: true)
        #expect(try Shell.run("cp '\(store)/records/2024/01.automerge' '\(device)/records/2024/01.automerge'").status == 0)
        let phone = try Store(folder: FilePath(device), timeZone: .utc)
        let january = try #require(Month(year: 2024, month: 1))
        let file = try #require(try phone.recordFiles(in: january).first { $0.id == BadInput.recordID })
        let text = String(decoding: file.contents, as: UTF8.self)
        let edited = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("  \"endTime\": ") ? "  \"endTime\": \"\(phoneEnd)\"," : String(line)
        }.joined(separator: "\n")
        #expect(edited != text)
        _ = try phone.writeRecordFile(Array(edited.utf8), named: file.name, in: january)
        return device + "/records/2024/01.automerge"
    }

    /// A shell line that delivers the phone's January as a sync tool does (beside, then renamed over),
    /// waits until the mount shows the phone's endTime, and then until the synchronization pass that
    /// merged it is counted in `.minutafs/status` (its merge is published then: what a program reads
    /// from then on, it reads knowingly). Waits on the mount's own counter; the deadlines (60 s) only
    /// end a wait on a mount that stopped.
    static func deliveryCommand(_ phone: String, mounted: MountedStore) -> String {
        let target = mounted.store + "/records/2024/01.automerge"
        let record = mounted.january + "/" + BadInput.recordName
        let passes = "sed -n 's/^synchronization passes: \\([0-9]*\\).*/\\1/p' '\(mounted.mountPoint)/.minutafs/status'"
        return "set -e; cp '\(phone)' '\(target).incoming'; mv '\(target).incoming' '\(target)'; "
            + "for i in $(seq 600); do grep -q '\(phoneEnd)' '\(record)' && break; sleep 0.1; done; grep -q '\(phoneEnd)' '\(record)'; "
            + "seen=$(\(passes)); "
            + "for i in $(seq 600); do [ \"$(\(passes))\" -gt \"$seen\" ] && exit 0; sleep 0.1; done; exit 1"
    }

    static func endTime(_ path: String) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(try Fixtures.contents(ofFileAtPath: path))) as? [String: Any]
        return object?["endTime"] as? String
    }

    /// A mounted sample store, the record's path, its endTime before the phone's change, and the
    /// phone's January to deliver.
    struct Scene {
        let mounted: MountedStore
        let record: String
        let oldEnd: String
        let phone: String

        init(in folder: String) throws {
            mounted = try MountedStore(in: folder)
            record = mounted.january + "/" + BadInput.recordName
            oldEnd = try #require(try StaleSaveMountTests.endTime(record))
            #expect(oldEnd != StaleSaveMountTests.phoneEnd)
            phone = try StaleSaveMountTests.phoneDocument(from: mounted.store, folder: folder)
        }

        /// Delivers the phone's change and waits until the mount shows it (published).
        func deliver() throws {
            let delivered = try Shell.run(StaleSaveMountTests.deliveryCommand(phone, mounted: mounted))
            #expect(delivered.status == 0, "\(delivered.output)")
            #expect(try StaleSaveMountTests.endTime(record) == StaleSaveMountTests.phoneEnd)
        }

        var conflicts: String { (try? mounted.text(mounted.mountPoint + "/.minutafs/conflicts")) ?? "" }
    }

    @Test("a script that read before the merge and writes after it keeps the phone's endTime, and its value is listed everywhere")
    func script() throws {
        try withTemporaryDirectory { folder in
            let scene = try Scene(in: folder)
            let script = """
                import json, subprocess, sys
                path, delivery = sys.argv[1], sys.argv[2]
                with open(path) as f:
                    record = json.load(f)
                subprocess.run(["bash", "-c", delivery], check=True)
                record["comment"] = "from the script"
                with open(path, "w") as f:
                    json.dump(record, f, indent=2)
                """
            _ = try PythonScript.run(script, arguments: [scene.record, Self.deliveryCommand(scene.phone, mounted: scene.mounted)])
            #expect(try Self.endTime(scene.record) == Self.phoneEnd, "the phone's endTime was reverted")
            #expect(try scene.mounted.text(scene.record).contains("from the script"))
            // Not applied, and said so, with both values and what to do.
            let conflicts = scene.conflicts
            #expect(conflicts.contains("endTime: not applied: the save read the file before device ")
                && conflicts.contains("kept \"\(Self.phoneEnd)\"; write it again to set \"\(scene.oldEnd)\""), "\(conflicts)")
            let log = try minutafsLog(scene.record)
            #expect(log.contains("not applied") && log.contains(scene.oldEnd), "\(log)")
            let json = try MinutafsBinary.run(["log", "--json", scene.record])
            #expect(json.status == 0, "\(json.errorText)")
            let conflictLine = try #require(json.outputText.split(separator: "\n").first { $0.hasPrefix("{\"conflict\": ") }, "\(json.outputText)")
            let object = try JSONSerialization.jsonObject(with: Data(conflictLine.utf8)) as? [String: String]
            #expect(object?["conflict"]?.contains("not applied") == true, "\(conflictLine)")
            #expect(try scene.mounted.text(scene.mounted.log).contains("not applied"))

            // The user sets it anyway, from a fresh read: applied.
            let again = """
                import json, sys
                path, end = sys.argv[1], sys.argv[2]
                with open(path) as f:
                    record = json.load(f)
                record["endTime"] = end
                with open(path, "w") as f:
                    json.dump(record, f, indent=2)
                """
            _ = try PythonScript.run(again, arguments: [scene.record, scene.oldEnd])
            #expect(try Self.endTime(scene.record) == scene.oldEnd)
            #expect(scene.mounted.unmount() == 0)
            let fresh = try Store(folder: FilePath(scene.mounted.store), timeZone: .utc)
            let january = try #require(Month(year: 2024, month: 1))
            let file = try #require(try fresh.recordFiles(in: january).first { $0.id == BadInput.recordID })
            #expect(String(decoding: file.contents, as: UTF8.self).contains(scene.oldEnd))
        }
    }

    @Test("vim after :e! sets the value the merge replaced")
    func vimAfterReload() throws {
        try withTemporaryDirectory { folder in
            let scene = try Scene(in: folder)
            // vim reads the file, the phone's change arrives while it is open, `:e!` reloads, then the edit.
            let delivery = folder + "/deliver.sh"
            #expect(FileManager.default.createFile(atPath: delivery, contents: Data(Self.deliveryCommand(scene.phone, mounted: scene.mounted).utf8)))
            let vim = try Shell.run("HOME=/tmp vim -Es -u DEFAULTS -i NONE -c 'silent !bash \(delivery)' -c 'e!' "
                + "-c '%s/\(Self.phoneEnd)/\(scene.oldEnd)/' -c '%s/an Jürgen/by vim/' -c 'wq' '\(scene.record)'")
            #expect(vim.status == 0, "\(vim.output)")
            #expect(try scene.mounted.text(scene.record).contains("by vim"))
            #expect(try Self.endTime(scene.record) == scene.oldEnd, "vim's deliberate save was dropped")
            #expect(scene.conflicts.isEmpty, "\(scene.conflicts)")
            #expect(scene.mounted.unmount() == 0)
        }
    }

    @Test("a fresh sed -i sets the value the merge replaced, also after an intermediate edit")
    func sedAndIntermediateEdit() throws {
        try withTemporaryDirectory { folder in
            let scene = try Scene(in: folder)
            try scene.deliver()
            let intermediate = "2024-01-03T09:01:00Z"
            let first = try Shell.run("sed -i 's/\(Self.phoneEnd)/\(intermediate)/' '\(scene.record)'")
            #expect(first.status == 0, "\(first.output)")
            #expect(try Self.endTime(scene.record) == intermediate)
            let second = try Shell.run("sed -i 's/\(intermediate)/\(scene.oldEnd)/' '\(scene.record)'")
            #expect(second.status == 0, "\(second.output)")
            #expect(try Self.endTime(scene.record) == scene.oldEnd, "sed's deliberate save was dropped")
            #expect(scene.conflicts.isEmpty, "\(scene.conflicts)")
            #expect(scene.mounted.unmount() == 0)
        }
    }

    @Test("Python that reads now and writes with fsync sets the value the merge replaced, in place and by os.replace",
          arguments: ["in place", "replace"])
    func pythonWithFsync(style: String) throws {
        try withTemporaryDirectory { folder in
            let scene = try Scene(in: folder)
            try scene.deliver()
            let script = """
                import json, os, sys, tempfile
                path, end, style = sys.argv[1], sys.argv[2], sys.argv[3]
                with open(path) as f:
                    record = json.load(f)
                record["endTime"] = end
                if style == "in place":
                    with open(path, "w") as f:
                        json.dump(record, f, indent=2)
                        f.flush()
                        os.fsync(f.fileno())
                else:
                    fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path))
                    with os.fdopen(fd, "w") as f:
                        json.dump(record, f, indent=2)
                        f.flush()
                        os.fsync(f.fileno())
                    os.replace(temporary, path)
                """
            _ = try PythonScript.run(script, arguments: [scene.record, scene.oldEnd, style])
            #expect(try Self.endTime(scene.record) == scene.oldEnd, "Python's deliberate save was dropped")
            #expect(scene.conflicts.isEmpty, "\(scene.conflicts)")
            #expect(scene.mounted.unmount() == 0)
        }
    }

    @Test("minutafs restore and cp from history set the record back right after the merge", arguments: ["restore", "cp"])
    func restoreFromHistory(how: String) throws {
        try withTemporaryDirectory { folder in
            let scene = try Scene(in: folder)
            try scene.deliver()
            let snapshot = scene.mounted.mountPoint + "/.minutafs/history/" + Self.snapshotDay + "/records/2024/01/" + BadInput.recordName
            #expect(try Self.endTime(snapshot) == scene.oldEnd)
            if how == "restore" {
                let restored = try MinutafsBinary.run(["restore", snapshot])
                #expect(restored.status == 0, "\(restored.errorText)")
                #expect(restored.outputText.contains("restored record \(BadInput.recordID)"), "\(restored.outputText)")
            } else {
                let copied = try Shell.run("cp '\(snapshot)' '\(scene.mounted.january)/'")
                #expect(copied.status == 0, "\(copied.output)")
            }
            #expect(try Self.endTime(scene.record) == scene.oldEnd, "the restore was dropped")
            #expect(try scene.mounted.text(scene.record) == scene.mounted.text(snapshot))
            #expect(scene.conflicts.isEmpty, "\(scene.conflicts)")
            #expect(scene.mounted.unmount() == 0)
        }
    }

    @Test("restore that reads back something else (another program's unsaved edit will win) prints no success and exits 1")
    func restoreReadBack() throws {
        try withTemporaryDirectory { folder in
            let scene = try Scene(in: folder)
            try scene.deliver()
            let snapshot = scene.mounted.mountPoint + "/.minutafs/history/" + Self.snapshotDay + "/records/2024/01/" + BadInput.recordName
            // A program holds the record open with an edit it has written but not yet closed (saved). It
            // forks nothing: a child's close of an inherited descriptor would save it.
            let ready = folder + "/ready"
            let done = folder + "/done"
            let holder = """
                import json, os, sys, time
                path, ready, done = sys.argv[1], sys.argv[2], sys.argv[3]
                with open(path, "r+") as f:
                    record = json.load(f)
                    record["comment"] = "held open"
                    f.seek(0)
                    f.truncate()
                    json.dump(record, f, indent=2)
                    f.flush()
                    open(ready, "w").close()
                    for _ in range(1200):
                        if os.path.exists(done):
                            break
                        time.sleep(0.05)
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", holder, scene.record, ready, done]
            try process.run()
            defer {
                _ = FileManager.default.createFile(atPath: done, contents: nil)
                process.waitUntilExit()
            }
            #expect(eventually(within: 60) { FileManager.default.fileExists(atPath: ready) })
            let restored = try MinutafsBinary.run(["restore", snapshot])
            #expect(restored.status == 1, "\(restored.outputText) \(restored.errorText)")
            #expect(!restored.outputText.contains("restored record"), "\(restored.outputText)")
            #expect(restored.errorText.contains("not restored") && restored.errorText.contains("comment is \"held open\""), "\(restored.errorText)")
            _ = FileManager.default.createFile(atPath: done, contents: nil)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(scene.mounted.unmount() == 0)
        }
    }

    @Test("a program that never read the record (cp from elsewhere) sets what it writes, and the merged value it replaced is listed")
    func unknownReader() throws {
        try withTemporaryDirectory { folder in
            let scene = try Scene(in: folder)
            let old = try scene.mounted.text(scene.record)
            let outside = folder + "/old.json"
            #expect(FileManager.default.createFile(atPath: outside, contents: Data(old.utf8)))
            try scene.deliver()
            let copied = try Shell.run("cp '\(outside)' '\(scene.record)'")
            #expect(copied.status == 0, "\(copied.output)")
            #expect(try Self.endTime(scene.record) == scene.oldEnd)
            let conflicts = scene.conflicts
            #expect(conflicts.contains("did not read the file through the mount") && conflicts.contains("it replaced \"\(Self.phoneEnd)\""), "\(conflicts)")
            #expect(scene.mounted.unmount() == 0)
        }
    }

    /// `minutafs log FILE`'s output; fails the test unless it exits 0.
    func minutafsLog(_ file: String) throws -> String {
        let result = try MinutafsBinary.run(["log", file])
        #expect(result.status == 0, "\(result.errorText)")
        return result.outputText
    }
}
