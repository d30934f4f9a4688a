import Foundation
import Testing
import TestSupport

/// A program creates a record file and, while it still writes it, another save files a record under
/// that very name (its start). On a disk the second writer would win; here neither may silently
/// overwrite the other: the record filed first stays as it was, and the creator's `close` fails, its
/// bytes kept in `.minutafs/rejected`.
@Suite(.serialized)
struct NewFileNameTakenMountTests {
    static let filedFirst = #"{"startTime": "2024-01-21T08:00:00Z", "endTime": "2024-01-21T10:00:00Z", "comment": "filed first"}"#
    static let created = #"{"startTime": "2024-01-25T08:00:00Z", "endTime": "2024-01-25T10:00:00Z", "comment": "created new"}"#

    @Test("a record filed under a name another program created and still writes: kept; that program's close fails and its bytes are kept")
    func recordFiledUnderCreatedName() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let name = "2024-01-21_080000.json"
            // The creator opens the name (new), waits for the other save, then writes and closes.
            let script = """
                import os, sys
                path, record = sys.argv[1], sys.argv[2]
                descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                print("created", flush=True)
                sys.stdin.readline()
                os.write(descriptor, record.encode())
                try:
                    os.close(descriptor)
                    print("closed")
                except OSError as error:
                    print("errno", error.errno)
                """
            let creator = try PausedProgram("/usr/bin/python3", ["-c", script, mounted.january + "/" + name, Self.created])
            #expect(creator.line() == "created")
            let other = try Shell.run(#"printf '%s\n' "$r" > "$m/other.json""#, environment: ["r": Self.filedFirst, "m": mounted.january])
            #expect(other.status == 0, "\(other.output)")
            let ended = try creator.resume()
            #expect(ended.status == 0)
            #expect(ended.output == "errno \(EINVAL)\n", "\(ended.output)")
            // The record filed first is as it was written, under its name and under the name it was written as.
            for shown in [name, "other.json"] {
                let comment = try Shell.run(#"jq -r .comment "$f""#, environment: ["f": mounted.january + "/" + shown])
                #expect(comment.output == "filed first\n", "\(shown): \(comment.output)")
            }
            let kept = try Shell.run(#"grep -rl "created new" "$m/.minutafs/rejected""#, environment: ["m": mounted.mountPoint])
            #expect(kept.status == 0, "the refused bytes are kept: \(kept.output)")
            #expect(mounted.unmount() == 0)
        }
    }
}
