import Foundation
import Testing
import TestSupport

/// Every write-then-rename save through a real mount, whatever the temporary name.
/// Each row writes a new comment into a record with a common tool and checks four things:
/// the edit is shown, the command (its `mv`) exits 0, nothing new appears in the backing folder, and
/// `.minutafs/errors` stays empty.
@Suite(.serialized)
struct SaveByRenameMountTests {
    /// A shell command that sets the comment of the record at `$f` (folder `$d`) to `$v`; `$o` is a
    /// folder outside the mount.
    static let rows: [(label: String, command: String)] = [
        ("$f.new", #"jq --arg v "$v" '.comment=$v' "$f" > "$f.new" && mv "$f.new" "$f""#),
        ("$f.tmp.$$", #"jq --arg v "$v" '.comment=$v' "$f" > "$f.tmp.$$" && mv "$f.tmp.$$" "$f""#),
        ("$f.$$", #"jq --arg v "$v" '.comment=$v' "$f" > "$f.$$" && mv "$f.$$" "$f""#),
        ("$f.tmp0", #"jq --arg v "$v" '.comment=$v' "$f" > "$f.tmp0" && mv "$f.tmp0" "$f""#),
        ("$f.1234567890", #"jq --arg v "$v" '.comment=$v' "$f" > "$f.1234567890" && mv "$f.1234567890" "$f""#),
        ("$f.XXXX.new", #"t="$f.k3Zq.new"; jq --arg v "$v" '.comment=$v' "$f" > "$t" && mv "$t" "$f""#),
        ("$f.aBc123 (QSaveFile)", #"jq --arg v "$v" '.comment=$v' "$f" > "$f.aBc123" && mv "$f.aBc123" "$f""#),
        ("tmp.json in the same folder", #"jq --arg v "$v" '.comment=$v' "$f" > "$d/tmp.json" && mv "$d/tmp.json" "$f""#),
        ("install -m 644", #"jq --arg v "$v" '.comment=$v' "$f" > "$o/src.json" && install -m 644 "$o/src.json" "$f""#),
        ("cp --backup=numbered", #"jq --arg v "$v" '.comment=$v' "$f" > "$o/src.json" && cp --backup=numbered "$o/src.json" "$f""#),
        ("python NamedTemporaryFile + os.replace", #"""
            python3 -c '
            import json, os, sys, tempfile
            path, value = sys.argv[1], sys.argv[2]
            record = json.load(open(path))
            record["comment"] = value
            with tempfile.NamedTemporaryFile("w", dir=os.path.dirname(path), delete=False) as out:
                json.dump(record, out)
            os.replace(out.name, path)
            ' "$f" "$v"
            """#),
    ]

    /// Every file below `folder` (relative paths).
    static func backingFiles(_ folder: String) -> Set<String> {
        Set((FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? [])
    }

    static func comment(_ path: String) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(try Fixtures.contents(ofFileAtPath: path))) as? [String: Any]
        return object?["comment"] as? String
    }

    @Test("write-then-rename saves with every temporary name: edit applied, exit 0, nothing in the backing folder, no error")
    func everyTemporaryName() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let outside = folder + "/outside"
            try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
            let names = try FileManager.default.contentsOfDirectory(atPath: mounted.january).filter { $0.hasSuffix(".json") }.sorted()
            let file = mounted.january + "/" + (try #require(names.first))
            let before = Self.backingFiles(mounted.store)
            for (index, row) in Self.rows.enumerated() {
                let value = "saved by row \(index): \(row.label)"
                let result = try Shell.run(row.command, environment: ["f": file, "d": mounted.january, "o": outside, "v": value])
                #expect(result.status == 0, "\(row.label): exit \(result.status): \(result.output)")
                #expect(try Self.comment(file) == value, "\(row.label): the edit is not shown")
                let added = Self.backingFiles(mounted.store).subtracting(before)
                #expect(added.isEmpty, "\(row.label): new in the backing folder: \(added.sorted())")
                #expect(try mounted.text(mounted.mountPoint + "/.minutafs/errors").isEmpty, "\(row.label): errors")
            }

            // GNU sed -i on several files at once.
            let several = names.prefix(3).map { mounted.january + "/" + $0 }
            let sed = try Shell.run("sed -i 's/\"comment\": \"[^\"]*\"/\"comment\": \"edited by sed\"/' " + several.map { "'\($0)'" }.joined(separator: " "))
            #expect(sed.status == 0, "sed -i: \(sed.output)")
            for path in several { #expect(try Self.comment(path) == "edited by sed", "sed -i: \(path)") }

            // Nothing can reach the backing folder later either: no temporary name is left in the mount to
            // settle (only cp's numbered backup, a scratch name that never leaves memory).
            let left = try FileManager.default.contentsOfDirectory(atPath: mounted.january).filter { name in
                !name.hasSuffix(".json") && !name.hasSuffix("~")
            }
            #expect(left.isEmpty, "temporary files left in the mount: \(left)")
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/errors").isEmpty)
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("a file that is neither a record nor an image goes to the folder a while after its last close; record JSON under it is refused")
    func settledFiles() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: mounted.january).filter { $0.hasSuffix(".json") }.sorted()
            let record = try Fixtures.contents(ofFileAtPath: mounted.january + "/" + (try #require(names.first)))
            // Written without fsync (Foundation's Data.write fsyncs, and an fsynced file goes to the folder at once).
            #expect(try Shell.run("printf 'plain notes\\n' > '\(mounted.january)/notes.txt'").status == 0)
            try Data(record).write(to: URL(fileURLWithPath: mounted.january + "/copy.json.bak1"))
            // Held in memory at first, shown by the mount.
            #expect(!FileManager.default.fileExists(atPath: mounted.store + "/records/2024/01/notes.txt"))
            #expect(try mounted.text(mounted.january + "/notes.txt") == "plain notes\n")
            let settled = eventually(within: 10) {
                FileManager.default.fileExists(atPath: mounted.store + "/records/2024/01/notes.txt")
            }
            #expect(settled, "notes.txt never reached the backing folder")
            #expect(try mounted.text(mounted.store + "/records/2024/01/notes.txt") == "plain notes\n")
            // Once it is the folder's, renaming it renames it there.
            let rename = try Shell.run("mv '\(mounted.january)/notes.txt' '\(mounted.january)/old-notes.txt'")
            #expect(rename.status == 0, "\(rename.output)")
            #expect(try mounted.text(mounted.store + "/records/2024/01/old-notes.txt") == "plain notes\n")
            #expect(!FileManager.default.fileExists(atPath: mounted.store + "/records/2024/01/notes.txt"))
            // The record's JSON under a name that is no record: refused, said in errors, never in the folder.
            let refused = eventually(within: 10) {
                (try? mounted.text(mounted.mountPoint + "/.minutafs/errors"))?.contains("copy.json.bak1") ?? false
            }
            #expect(refused, "no error for the record copy")
            #expect(!FileManager.default.fileExists(atPath: mounted.store + "/records/2024/01/copy.json.bak1"))
            #expect(!FileManager.default.fileExists(atPath: mounted.january + "/copy.json.bak1"))
            // The same for tags.json's JSON beside it, and a jq-style save of tags.json works.
            let tags = try Fixtures.contents(ofFileAtPath: mounted.mountPoint + "/tags.json")
            try Data(tags).write(to: URL(fileURLWithPath: mounted.mountPoint + "/tags.json.old"))
            let tagsRefused = eventually(within: 10) {
                (try? mounted.text(mounted.mountPoint + "/.minutafs/errors"))?.contains("tags.json's JSON under \"tags.json.old\"") ?? false
            }
            #expect(tagsRefused, "no error for the tags copy")
            #expect(!FileManager.default.fileExists(atPath: mounted.store + "/tags.json.old"))
            let tagsSave = try Shell.run(#"jq '.' "$m/tags.json" > "$m/tags.json.new" && mv "$m/tags.json.new" "$m/tags.json""#, environment: ["m": mounted.mountPoint])
            #expect(tagsSave.status == 0, "\(tagsSave.output)")
            #expect(!FileManager.default.fileExists(atPath: mounted.store + "/tags.json.new"))
            #expect(mounted.unmount() == 0)
        }
    }
}
