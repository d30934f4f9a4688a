import Foundation
import Testing
import TestSupport

/// `minutafs restore` through a real mount (SPEC 5b: "Restoring one record or tag from history
/// changes only that record or tag"; section 8): one tag or one record set back to a snapshot while
/// every tag and record changed after the snapshot keeps its current values. Also shows why the
/// command exists: `cp SNAPSHOT/tags.json MOUNT/tags.json` reverts every other tag as well.
@Suite(.serialized)
struct RestoreMountTests {
    /// The sample store's tags (ids from `Tests/Fixtures/stores/app-2024.expected/tags.json`).
    static let ecriture = "11025F19-2DF6-4594-9CBA-CAEFB39E7A09"  // deleted after the snapshot, then restored
    static let yoga = "6AEAB6BD-E6DD-4A65-B4BC-483D0459ABE6"  // archived after the snapshot
    static let commute = "7993C5A5-14D0-4821-B976-E95BFDEB18D8"  // renamed "Travel" after the snapshot

    /// A day after every change of the sample store, before any change a test makes.
    static let snapshotDay = "2025-01-01"

    /// The tags of a `tags.json`, keyed by id, as Python's `json` (not our parser) reads them.
    func tags(_ file: String) throws -> [String: NSDictionary] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any]
        let list = try #require(object?["tags"] as? [[String: Any]], "\(file) is not {\"tags\": [...]}")
        return Dictionary(list.map { (($0["id"] as? String) ?? "", NSDictionary(dictionary: $0)) }) { first, _ in first }
    }

    @Test("restore --tag brings back a deleted tag and leaves tags created, archived and renamed since as they are; cp of tags.json reverts them")
    func restoreOneTag() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let live = mounted.mountPoint + "/tags.json"
            let snapshot = mounted.mountPoint + "/.minutafs/history/" + Self.snapshotDay
            let snapshotTags = try tags(snapshot + "/tags.json")
            #expect(snapshotTags.count == 5)

            // After the snapshot, one save each: create a tag, archive one, rename one, delete one.
            let script = #"""
                import json, sys
                path = sys.argv[1]
                def change(edit):
                    with open(path, encoding='utf-8') as f:
                        tags = json.load(f)['tags']
                    tags = edit(tags)
                    with open(path, 'w', encoding='utf-8') as f:
                        json.dump({'tags': tags}, f, ensure_ascii=False, indent=2)
                def named(tags, name):
                    return next(t for t in tags if t['name'] == name)
                change(lambda tags: tags + [{'name': 'Reading', 'color': '#123456'}])
                change(lambda tags: [dict(t, isArchived=True) if t['name'] == 'Yoga' else t for t in tags])
                change(lambda tags: [dict(t, name='Travel') if t['name'] == 'Commute' else t for t in tags])
                change(lambda tags: [t for t in tags if t['name'] != '\u00c9criture'])
                """#
            _ = try PythonScript.run(script, arguments: [live])
            let before = try tags(live)
            let created = try #require(before.first { $0.value["name"] as? String == "Reading" }?.key, "\(before)")
            #expect(before[Self.ecriture] == nil)
            #expect(before[Self.yoga]?["isArchived"] as? Bool == true)
            #expect(before[Self.commute]?["name"] as? String == "Travel")
            #expect(before.count == 5)

            // Restore the deleted tag by its name in the snapshot.
            let restored = try MinutafsBinary.run(["restore", "--tag", "\u{00C9}criture", snapshot])
            #expect(restored.status == 0, "\(restored.errorText)")
            #expect(restored.outputText.contains("restored tag \"\u{00C9}criture\" (\(Self.ecriture))"), "\(restored.outputText)")
            let after = try tags(live)
            #expect(after[Self.ecriture] == snapshotTags[Self.ecriture], "\(String(describing: after[Self.ecriture]))")
            #expect(after.count == before.count + 1)
            for (id, tag) in before {
                #expect(after[id] == tag, "tag \(id) changed: \(tag) -> \(String(describing: after[id]))")
            }
            #expect(after[created]?["name"] as? String == "Reading")

            // Again: nothing to do, nothing written.
            let again = try MinutafsBinary.run(["restore", "--tag", Self.ecriture.lowercased(), snapshot + "/tags.json"])
            #expect(again.status == 0, "\(again.errorText)")
            #expect(again.outputText.contains("already as in \(Self.snapshotDay)"), "\(again.outputText)")
            #expect(try tags(live) == after)

            // A tag renamed since is found by its name now, and only its name goes back.
            let renamed = try MinutafsBinary.run(["restore", "--tag", "Travel", snapshot + "/tags.json"])
            #expect(renamed.status == 0, "\(renamed.errorText)")
            let afterRename = try tags(live)
            #expect(afterRename[Self.commute] == snapshotTags[Self.commute])
            for (id, tag) in after where id != Self.commute {
                #expect(afterRename[id] == tag, "tag \(id) changed: \(tag) -> \(String(describing: afterRename[id]))")
            }

            // Mistakes are refused with a line that says what to give; nothing changes.
            let failures: [([String], String)] = [
                (["restore", "--tag", "Nothing", snapshot], "no tag \"Nothing\" in the snapshot; its tags: \"Commute\" (7993C5A5-14D0-4821-B976-E95BFDEB18D8), \"Meetings & Calls\""),
                (["restore", snapshot + "/tags.json"], "give --tag NAME or ID"),
                (["restore", "--tag", "Yoga", live], "not in a history snapshot of \(mounted.mountPoint); give a record file"),
                (["restore", "--tag", "Yoga", folder], "not in a minutafs mount; give"),
                (["restore", "--tag", "Yoga", snapshot + "/records/2024/03"], "--tag restores from a snapshot's tags.json"),
            ]
            for (arguments, message) in failures {
                let result = try MinutafsBinary.run(arguments)
                #expect(result.status == 1, "\(arguments): \(result.outputText)")
                #expect(result.errorText.hasPrefix("minutafs: ") && result.errorText.contains(message), "\(arguments): \(result.errorText)")
                #expect(result.errorText.split(separator: "\n").count == 1, "\(result.errorText)")
            }
            #expect(try tags(live) == afterRename)

            // Why the command exists: the old README way, `cp` of the whole tags.json, sets every tag
            // back to the snapshot: the tag created since is deleted, the archived one is live again.
            let copied = try Shell.run("cp '\(snapshot)/tags.json' '\(live)'")
            #expect(copied.status == 0, "\(copied.output)")
            let afterCopy = try tags(live)
            #expect(afterCopy[created] == nil, "the tag created after the snapshot is gone")
            #expect(afterCopy[Self.yoga]?["isArchived"] as? Bool == false, "the archived tag is live again")
            #expect(afterCopy == snapshotTags)
            #expect(mounted.unmount() == 0)
        }
    }

    /// The record file holding `id` in a folder of the mount.
    func file(holding id: String, in folder: String) -> String? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        return names.first { name in
            (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8))?.contains("\"id\": \"\(id)\"") == true
        }.map { folder + "/" + $0 }
    }

    @Test("restore with a relative path, run in the month folder right after a save by sed -i there, restores the record")
    func relativePathFromTheMonthFolder() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let march = mounted.mountPoint + "/records/2024/03"
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: march).filter { $0.hasSuffix(".json") }.sorted().first)
            let snapshot = "../../../.minutafs/history/" + Self.snapshotDay + "/records/2024/03/" + name
            let original = try mounted.text(march + "/" + name)
            // The save renames a new version over the record in the shell's current folder: the folder
            // itself must stay the shell's current folder (getcwd), as on a local disk.
            let edit = try Shell.run("cd '\(march)' && sed -i 's/\"comment\": \"[^\"]*\"/\"comment\": \"edited by sed\"/' '\(name)' && /bin/pwd")
            #expect(edit.status == 0 && edit.output.hasPrefix(march), "\(edit.output)")
            #expect(try mounted.text(march + "/" + name).contains("edited by sed"))
            let result = try MinutafsBinary.run(["restore", snapshot], in: march)
            #expect(result.status == 0, "\(result.errorText)")
            #expect(try mounted.text(march + "/" + name) == original)
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("restore of a record file sets only that record back: another record edited since keeps its edit; a deleted one and a moved one come back with their ids")
    func restoreOneRecord() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let march = mounted.mountPoint + "/records/2024/03"
            let april = mounted.mountPoint + "/records/2024/04"
            let snapshot = mounted.mountPoint + "/.minutafs/history/" + Self.snapshotDay + "/records/2024/03"
            let names = try FileManager.default.contentsOfDirectory(atPath: march).filter { $0.hasSuffix(".json") }.sorted()
            try #require(names.count >= 4)
            // Four records: edited and restored, edited and kept, deleted and restored, moved and restored.
            let (restored, kept, deleted, moved) = (names[0], names[1], names[2], names[3])
            func id(_ name: String) throws -> String {
                let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: march + "/" + name))) as? [String: Any]
                return try #require(object?["id"] as? String)
            }
            let (restoredID, deletedID, movedID) = (try id(restored), try id(deleted), try id(moved))
            let snapshotText = try Dictionary(uniqueKeysWithValues: [restored, kept, deleted, moved].map { ($0, try mounted.text(snapshot + "/" + $0)) })

            // After the snapshot: two comments edited, one record deleted, one moved to April.
            let script = #"""
                import json, os, sys
                march = sys.argv[1]
                def change(name, edit):
                    with open(march + '/' + name, encoding='utf-8') as f:
                        record = json.load(f)
                    edit(record)
                    with open(march + '/' + name, 'w', encoding='utf-8') as f:
                        json.dump(record, f, ensure_ascii=False, indent=2)
                change(sys.argv[2], lambda r: r.update(comment='edited after the snapshot'))
                change(sys.argv[3], lambda r: r.update(comment='also edited, and kept'))
                os.remove(march + '/' + sys.argv[4])
                change(sys.argv[5], lambda r: r.update(startTime='2024-04-15T10:00:00Z', endTime='2024-04-15T11:00:00Z'))
                """#
            _ = try PythonScript.run(script, arguments: [march, restored, kept, deleted, moved])
            let now = mounted.mountPoint + "/.minutafs/history/2999-01-01T00:00Z/records/2024/03"
            // The removal reaches the store a moment after `rm` (see FuseFileSystem.unlink).
            #expect(eventually(within: 15) { file(holding: deletedID, in: now) == nil && file(holding: deletedID, in: march) == nil })
            let keptText = try mounted.text(march + "/" + kept)
            #expect(keptText.contains("also edited, and kept"))
            #expect(try mounted.text(march + "/" + restored).contains("edited after the snapshot"))
            let movedFile = try #require(file(holding: movedID, in: april)).split(separator: "/").suffix(4).joined(separator: "/")

            // Restore one edited record: it is as in the snapshot, the other keeps its edit.
            let result = try MinutafsBinary.run(["restore", snapshot + "/" + restored])
            #expect(result.status == 0, "\(result.errorText)")
            #expect(result.outputText.contains("restored record \(restoredID) as of \(Self.snapshotDay)"), "\(result.outputText)")
            #expect(try mounted.text(march + "/" + restored) == snapshotText[restored])
            #expect(try mounted.text(march + "/" + kept) == keptText)
            let again = try MinutafsBinary.run(["restore", snapshot + "/" + restored])
            #expect(again.status == 0 && again.outputText.contains("already as in"), "\(again.outputText) \(again.errorText)")

            // The deleted record comes back with its id, under its name.
            let back = try MinutafsBinary.run(["restore", snapshot + "/" + deleted])
            #expect(back.status == 0, "\(back.errorText)")
            #expect(back.outputText.contains("restored deleted record \(deletedID)"), "\(back.outputText)")
            #expect(eventually(within: 10) { (try? mounted.text(march + "/" + deleted)) == snapshotText[deleted] })

            // The moved record is found in April by its id and goes back to March, once.
            let home = try MinutafsBinary.run(["restore", snapshot + "/" + moved])
            #expect(home.status == 0, "\(home.errorText)")
            #expect(home.outputText.contains(movedFile), "\(home.outputText)")
            #expect(eventually(within: 10) { (try? mounted.text(march + "/" + moved)) == snapshotText[moved] })
            #expect(eventually(within: 10) { file(holding: movedID, in: april) == nil })

            #expect(try mounted.text(march + "/" + kept) == keptText)
            #expect(try mounted.text(march + "/" + restored) == snapshotText[restored])
            for name in names where ![restored, kept, deleted, moved].contains(name) {
                #expect(try mounted.text(march + "/" + name) == mounted.text(snapshot + "/" + name), "\(name)")
            }

            // A path that is no record of a snapshot is refused, saying what to give.
            let failures: [([String], String)] = [
                ([march + "/" + kept], "not in a history snapshot of"),
                ([snapshot], "not a record file of a snapshot; give"),
                ([snapshot + "/" + kept, "--tag", "Yoga"], "--tag restores from a snapshot's tags.json"),
                ([snapshot + "/nothing.json"], "no such file"),
            ]
            for (arguments, message) in failures {
                let result = try MinutafsBinary.run(["restore"] + arguments)
                #expect(result.status == 1, "\(arguments): \(result.outputText)")
                #expect(result.errorText.contains(message), "\(arguments): \(result.errorText)")
            }
            #expect(try mounted.text(march + "/" + kept) == keptText)
            #expect(mounted.unmount() == 0)
        }
    }
}
