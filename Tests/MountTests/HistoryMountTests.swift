import AutomergeKit
import Foundation
import Testing
import TestSupport

/// `MOUNT/.minutafs/history/` through a real mount (SPEC section 8): hidden from `ls`, `grep -r`,
/// `find`, `du` and `rsync`; an edited and a deleted record restored with `cp` from a snapshot, on this mount and on a
/// second mount over a copy of the backing folder; every write under it fails with `EROFS`.
@Suite(.serialized)
struct HistoryMountTests {
    /// March records of the sample store: one to edit, one to delete.
    static let editedID = "478594E3-17C2-407E-8493-B78CB2137020"
    static let deletedID = "0144B87B-34CC-4DD9-AF76-D07C366E1C12"

    /// The name of the record file holding `id` in a folder of the mount.
    func fileName(holding id: String, in folder: String) throws -> String? {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.first { name in
            (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8))?.contains("\"id\": \"\(id)\"") == true
        }
    }

    @Test("cp from a snapshot restores an edited and a deleted record with their ids, also on a second mount over a copy")
    func restoreWithCopy() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let live = mounted.mountPoint + "/records/2024/03"
            let history = mounted.mountPoint + "/.minutafs/history"
            let edited = try #require(try fileName(holding: Self.editedID, in: live))
            let deleted = try #require(try fileName(holding: Self.deletedID, in: live))
            let editedBefore = try mounted.text(live + "/" + edited)
            let deletedBefore = try mounted.text(live + "/" + deleted)

            #expect(try !FileManager.default.contentsOfDirectory(atPath: mounted.mountPoint + "/.minutafs").contains("history"))
            let days = try FileManager.default.contentsOfDirectory(atPath: history).sorted()
            #expect(days.first?.hasPrefix("2024-") == true, "\(days)")

            // Edit one record and delete the other through the mount, today.
            let changed = editedBefore.replacingOccurrences(of: "\"images\"", with: "\"comment\": \"edited today\",\n  \"images\"")
            try Array(changed.utf8).withUnsafeBufferPointer { try Data($0).write(to: URL(fileURLWithPath: live + "/" + edited)) }
            try FileManager.default.removeItem(atPath: live + "/" + deleted)
            let now = "/.minutafs/history/2999-01-01T00:00Z/records/2024/03"
            // The removal reaches the store a moment after `rm` (see FuseFileSystem.unlink).
            func isGone() -> Bool {
                do { return try fileName(holding: Self.deletedID, in: mounted.mountPoint + now) == nil } catch { return false }
            }
            #expect(eventually(within: 15, isGone))
            let today = DateFormatter()
            today.dateFormat = "yyyy-MM-dd"
            today.timeZone = TimeZone(identifier: "UTC")
            #expect(try FileManager.default.contentsOfDirectory(atPath: history).contains(today.string(from: Date())))

            // A snapshot of a day before today holds both as they were, and cp brings them back.
            let snapshot = history + "/2025-01-01/records/2024/03"
            #expect(try mounted.text(snapshot + "/" + edited) == editedBefore)
            #expect(try mounted.text(snapshot + "/" + deleted) == deletedBefore)
            let copied = try Shell.run("cp '\(snapshot)/\(edited)' '\(snapshot)/\(deleted)' '\(live)/'")
            #expect(copied.status == 0, "\(copied.output)")
            #expect(eventually(within: 10) { (try? mounted.text(live + "/" + deleted)) == deletedBefore })
            #expect(try mounted.text(live + "/" + edited) == editedBefore)
            #expect(try mounted.text(live + "/" + deleted) == deletedBefore)
            #expect(mounted.unmount() == 0)

            // A second mount over a copy of the backing folder shows both, same ids and values.
            let second = folder + "/second"
            try FileManager.default.createDirectory(atPath: second, withIntermediateDirectories: false)
            try FileManager.default.copyItem(atPath: mounted.store, toPath: second + "/store")
            let again = try MountedStore(in: second, copyingSample: false)
            let liveAgain = again.mountPoint + "/records/2024/03"
            #expect(try fileName(holding: Self.editedID, in: liveAgain) == edited)
            #expect(try fileName(holding: Self.deletedID, in: liveAgain) == deleted)
            #expect(try again.text(liveAgain + "/" + edited) == editedBefore)
            #expect(try again.text(liveAgain + "/" + deleted) == deletedBefore)
            #expect(again.unmount() == 0)
        }
    }

    @Test("grep -r, find, du and rsync over the mount never enter history; every write there fails with EROFS")
    func hiddenAndReadOnly() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let history = mounted.mountPoint + "/.minutafs/history"
            // Opened once by name first, so the kernel knows it; still never walked.
            #expect(try !FileManager.default.contentsOfDirectory(atPath: history).isEmpty)
            let grep = try Shell.run("grep -rl '\(Self.editedID)' '\(mounted.mountPoint)'")
            #expect(grep.output.contains("/records/2024/03/"), "\(grep.output)")
            #expect(!grep.output.contains("history"), "\(grep.output)")
            let find = try Shell.run("find '\(mounted.mountPoint)'")
            #expect(find.status == 0 && find.output.contains("/records/2024/03/"), "\(find.output.suffix(500))")
            #expect(!find.output.contains("history"))
            let du = try Shell.run("du -a '\(mounted.mountPoint)'")
            #expect(du.output.contains("/records/2024/03/") && !du.output.contains("history"), "\(du.output.suffix(500))")
            let rsync = try Shell.run("rsync -a --dry-run -v '\(mounted.mountPoint)/' '\(folder)/rsync-copy/'")
            #expect(rsync.output.contains("records/2024/03/") && !rsync.output.contains("history"), "\(rsync.output.suffix(500))")

            let snapshot = history + "/2025-01-01"
            let script = #"""
                import errno, os, sys
                snap = sys.argv[1]
                month = snap + '/records/2024/03'
                record = month + '/' + sorted(n for n in os.listdir(month) if n.endswith('.json'))[0]
                def code(action):
                    try:
                        action()
                        return 0
                    except OSError as error:
                        return error.errno
                results = [
                    code(lambda: open(record, 'w').close()),
                    code(lambda: open(record, 'a').close()),
                    code(lambda: open(snap + '/tags.json', 'r+').close()),
                    code(lambda: open(month + '/new.json', 'w').close()),
                    code(lambda: os.remove(record)),
                    code(lambda: os.rename(record, record + '.bak')),
                    code(lambda: os.mkdir(month + '/sub')),
                    code(lambda: os.rmdir(month)),
                    code(lambda: os.mkdir(os.path.dirname(snap) + '/2020-01-01x')),
                ]
                print(' '.join(str(r) for r in results))
                """#
            let run = try PythonScript.run(script, arguments: [snapshot])
            let codes = run.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            #expect(codes == Array(repeating: Int(EROFS), count: 9), "\(run)")
            #expect(try String(contentsOfFile: mounted.mountPoint + "/.minutafs/status", encoding: .utf8).contains(".minutafs/history"))
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("chmod, chown, touch, ln -s, ln and mkfifo in history and reports fail with EROFS and change nothing; elsewhere ln and mkfifo give EPERM")
    func readOnlyViewsRefuseAttributesAndLinks() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let script = #"""
                import errno, os, sys
                mnt = sys.argv[1]
                snap = mnt + '/.minutafs/history/2025-01-01'
                month = snap + '/records/2024/03'
                record = month + '/' + sorted(n for n in os.listdir(month) if n.endswith('.json'))[0]
                report = mnt + '/reports/2024/03.csv'
                def code(action):
                    try:
                        action()
                        return 0
                    except OSError as error:
                        return error.errno
                lines = []
                for target in [record, month, snap, snap + '/tags.json', report, mnt + '/reports/2024', mnt + '/reports']:
                    before = os.stat(target)
                    folder = target if os.path.isdir(target) else os.path.dirname(target)
                    results = [
                        code(lambda: os.chmod(target, 0o777)),
                        code(lambda: os.chown(target, os.getuid(), os.getgid())),
                        code(lambda: os.utime(target, (1, 1))),
                        code(lambda: os.utime(target)),
                        code(lambda: os.symlink('x', folder + '/link')),
                        code(lambda: os.mkfifo(folder + '/fifo')),
                        # (a hard link to a folder is refused by the kernel itself: link a file into it)
                        code(lambda: os.link(target if not os.path.isdir(target) else snap + '/tags.json', folder + '/hard')),
                    ]
                    after = os.stat(target)
                    same = (before.st_mode, before.st_mtime_ns) == (after.st_mode, after.st_mtime_ns)
                    lines.append(' '.join(str(r) for r in results) + (' same' if same else ' changed') + ' ' + target[len(mnt):])
                live = mnt + '/records/2024/03'
                live_record = live + '/' + sorted(n for n in os.listdir(live) if n.endswith('.json'))[0]
                lines.append(' '.join(str(r) for r in [
                    code(lambda: os.symlink('x', live + '/link')),
                    code(lambda: os.mkfifo(live + '/fifo')),
                    code(lambda: os.link(live_record, live + '/hard.json')),
                ]) + ' live')
                print('\n'.join(lines))
                """#
            let output = try PythonScript.run(script, arguments: [mounted.mountPoint])
            let lines = output.split(separator: "\n").map(String.init)
            #expect(lines.count == 8, "\(output)")
            let readOnly = Array(repeating: String(EROFS), count: 7).joined(separator: " ") + " same "
            for line in lines.dropLast() {
                #expect(line.hasPrefix(readOnly), "\(line)")
            }
            #expect(lines.last == "\(EPERM) \(EPERM) \(EPERM) live", "\(output)")
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("minutafs log lists a record's changes oldest first and marks two devices' concurrent edits, for a store and a mounted file")
    func logMarksConcurrentEdits() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/store"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
            try Shell.run("chmod -R u+w '\(store)'")
            // Two devices edit the same record without seeing each other's change, then sync.
            let file = store + "/records/2024/03.automerge"
            var document = try Document.load(Fixtures.contents(ofFileAtPath: file))
            guard case .object(let record, .map)? = document.value(of: .root, key: Self.editedID) else {
                Issue.record("no record \(Self.editedID)")
                return
            }
            var laptop = document.fork(actor: ActorID(bytes: [UInt8](repeating: 0xAA, count: 16)))
            var phone = document.fork(actor: ActorID(bytes: [UInt8](repeating: 0xBB, count: 16)))
            try laptop.put(.string("from the laptop"), forKey: "comment", in: record)
            _ = laptop.commit(time: 1_717_000_000)  // seconds
            try phone.put(.timestamp(1_710_900_000_000), forKey: "endTime", in: record)
            _ = phone.commit(time: 1_717_000_100_000)  // milliseconds
            try document.merge(laptop)
            try document.merge(phone)
            try Data(document.save()).write(to: URL(fileURLWithPath: file))

            let result = try MinutafsBinary.run(["log", store, Self.editedID])
            #expect(result.status == 0, "\(result.errorText)")
            let lines = result.outputText.split(separator: "\n").map(String.init)
            #expect(lines.count == 5, "\(lines)")
            let laptopLine = try #require(lines.first { $0.contains(" aaaaaaaa ") }, "\(lines)")
            let phoneLine = try #require(lines.first { $0.contains(" bbbbbbbb ") }, "\(lines)")
            #expect(laptopLine.hasPrefix("2024-05-29T16:26:40Z aaaaaaaa edited (concurrent with "), "\(laptopLine)")
            #expect(laptopLine.hasSuffix("comment: (none) -> \"from the laptop\""), "\(laptopLine)")
            #expect(phoneLine.hasPrefix("2024-05-29T16:28:20Z bbbbbbbb edited (concurrent with "), "\(phoneLine)")
            #expect(phoneLine.hasSuffix("endTime: \"2024-03-19T22:39:51.958Z\" -> \"2024-03-20T02:00:00Z\""), "\(phoneLine)")
            #expect(lines.filter { $0.contains("concurrent") }.count == 2, "\(lines)")
            #expect(lines == lines.sorted(), "oldest first: \(lines)")

            let json = try MinutafsBinary.run(["log", "--json", store, Self.editedID])
            let objects = try json.outputText.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
            #expect(objects.count == 5)
            #expect(objects.compactMap { $0["concurrent"] as? Bool } == [false, false, false, true, true])
            #expect(objects.compactMap { $0["device"] as? String }.suffix(2) == ["aaaaaaaa", "bbbbbbbb"])

            // The same for the record's file in a mount.
            let mounted = try MountedStore(in: folder, copyingSample: false)
            let live = mounted.mountPoint + "/records/2024/03"
            let name = try #require(try fileName(holding: Self.editedID, in: live))
            let fromFile = try MinutafsBinary.run(["log", live + "/" + name])
            #expect(fromFile.status == 0, "\(fromFile.errorText)")
            #expect(fromFile.outputText == result.outputText)
            #expect(mounted.unmount() == 0)
        }
    }
}
