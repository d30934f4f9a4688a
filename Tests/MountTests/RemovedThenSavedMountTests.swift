import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// A record file removed and then saved again under another name before its removal is carried out
/// (two seconds later) is the same record saved, not deleted: `mv` of it out of the mount and back into
/// any month folder (a move to another month goes that way, since `mv` inside the mount is refused),
/// and `rm x; cp saved.json y`. Each returned 0, and the record must be in the store after the mount ends.
@Suite(.serialized)
struct RemovedThenSavedMountTests {
    /// The sample record's January and whether the store holds it once the mount has ended.
    static func storeHoldsRecord(_ store: String) throws -> Bool {
        let january = try #require(Month(year: 2024, month: 1))
        return try Store(folder: FilePath(store), timeZone: .utc).recordFiles(in: january).contains { $0.id == BadInput.recordID }
    }

    @Test("a record moved out of the mount and back into a month folder under its own or another name is kept",
          arguments: [("02", BadInput.recordName), ("01", "moved back.json"), ("02", "moved back.json")])
    func movedOutAndBack(folderName: String, name: String) throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let record = mounted.january + "/" + BadInput.recordName
            let outside = folder + "/outside.json"
            let back = mounted.mountPoint + "/records/2024/" + folderName + "/" + name
            let moved = try Shell.run(#"set -e; mv "$r" "$o"; mv "$o" "$b""#, environment: ["r": record, "o": outside, "b": back])
            #expect(moved.status == 0, "\(moved.output)")
            // Its startTime is in January: the record shows there, once.
            let shown = try Shell.run(#"grep -rl "$id" "$m/records""#, environment: ["id": BadInput.recordID, "m": mounted.mountPoint])
            #expect(shown.output == record + "\n", "\(shown.output)")
            // The end of the mount carries out every removal still pending.
            #expect(mounted.unmount() == 0)
            #expect(try Self.storeHoldsRecord(mounted.store))
        }
    }

    @Test("touch of a new record file, then its JSON written at once, makes the record: the touched name is still there to write")
    func touchedThenWritten() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            // A new name each time: the touch makes a new file (a name written before finds its record).
            for index in 1...20 {
                let start = String(format: "2024-01-20T09:%02d:00Z", index)
                let record = #"{"startTime": "\#(start)", "endTime": "2024-01-20T10:00:00Z", "comment": "touched \#(index)"}"#
                let written = try Shell.run(#"set -e; touch "$m/$n"; printf '%s\n' "$r" > "$m/$n"; grep -l "$c" "$m"/*.json"#,
                                            environment: ["m": mounted.january, "n": "later \(index).json", "r": record, "c": "touched \(index)"])
                #expect(written.status == 0, "\(index): \(written.output)")
            }
            // The touch itself was no refused save: an empty record file is kept, not given to the store.
            let errors = try Shell.run(#"cat "$m/.minutafs/errors""#, environment: ["m": mounted.mountPoint])
            #expect(errors.status == 0 && !errors.output.contains("later "), "\(errors.output)")
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("rm of a record, then cp of its saved bytes under another name: kept; of another record's: removed")
    func removedThenCopied() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let record = mounted.january + "/" + BadInput.recordName
            let saved = folder + "/saved.json"
            let copied = try Shell.run(#"set -e; cp "$r" "$s"; rm "$r"; cp "$s" "$m/copy.json""#,
                                       environment: ["r": record, "s": saved, "m": mounted.january])
            #expect(copied.status == 0, "\(copied.output)")
            #expect(try Shell.run(#"cat "$r""#, environment: ["r": record]).status == 0)
            #expect(mounted.unmount() == 0)
            #expect(try Self.storeHoldsRecord(mounted.store))
        }
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let record = mounted.january + "/" + BadInput.recordName
            let other = #"{"startTime": "2024-01-20T09:00:00Z", "endTime": "2024-01-20T10:00:00Z", "comment": "another"}"#
            let written = try Shell.run(#"set -e; rm "$r"; printf '%s\n' "$j" > "$m/another.json""#,
                                        environment: ["r": record, "j": other, "m": mounted.january])
            #expect(written.status == 0, "\(written.output)")
            #expect(mounted.unmount() == 0)
            #expect(try !Self.storeHoldsRecord(mounted.store))
        }
    }
}
