import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// Linux names are bytes: `café` written precomposed (NFC, `caf\xc3\xa9`) and decomposed (NFD,
/// `cafe\xcc\x81`) are two names, two files, though Swift's `String` holds them equal. Writing one
/// never replaces the other, through the mount or in the store.
@Suite(.serialized)
struct UnicodeNameMountTests {
    /// A shell line that defines `$nfc` and `$nfd` as the two spellings of `café` followed by `suffix`.
    static func names(_ suffix: String) -> String {
        "nfc=$(printf 'caf\\303\\251\(suffix)'); nfd=$(printf 'cafe\\314\\201\(suffix)'); "
    }

    @Test("files whose names differ only in Unicode normalization stay two files, in a month folder and at the top")
    func passThroughFiles() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            for directory in [mounted.january, mounted.mountPoint] {
                let written = try Shell.run(Self.names(".txt") + #"set -e; echo one > "$d/$nfc"; echo two > "$d/$nfd"; cat "$d/$nfc" "$d/$nfd""#,
                                            environment: ["d": directory])
                #expect(written.status == 0 && written.output == "one\ntwo\n", "\(directory): \(written.output)")
                let listed = try Shell.run(Self.names(".txt") + #"ls "$d" | grep -c -x -e "$nfc" -e "$nfd""#, environment: ["d": directory])
                #expect(listed.output == "2\n", "\(directory): \(listed.output)")
            }
            #expect(mounted.unmount() == 0)
            for directory in [mounted.store + "/records/2024/01", mounted.store] {
                let kept = try Shell.run(Self.names(".txt") + #"set -e; cat "$d/$nfc" "$d/$nfd""#, environment: ["d": directory])
                #expect(kept.status == 0 && kept.output == "one\ntwo\n", "\(directory): \(kept.output)")
            }
        }
    }

    @Test("two new records written under names that differ only in Unicode normalization are two records")
    func newRecords() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let first = #"{"startTime": "2024-01-20T09:00:00Z", "endTime": "2024-01-20T10:00:00Z", "comment": "precomposed"}"#
            let second = #"{"startTime": "2024-01-21T09:00:00Z", "endTime": "2024-01-21T10:00:00Z", "comment": "decomposed"}"#
            let written = try Shell.run(Self.names(".json") + #"set -e; printf '%s\n' "$a" > "$d/$nfc"; printf '%s\n' "$b" > "$d/$nfd""#,
                                        environment: ["d": mounted.january, "a": first, "b": second])
            #expect(written.status == 0, "\(written.output)")
            #expect(mounted.unmount() == 0)
            let january = try #require(Month(year: 2024, month: 1))
            let comments = try Store(folder: FilePath(mounted.store), timeZone: .utc).recordFiles(in: january).map { String(decoding: $0.contents, as: UTF8.self) }
            #expect(comments.contains { $0.contains("\"precomposed\"") }, "\(comments)")
            #expect(comments.contains { $0.contains("\"decomposed\"") }, "\(comments)")
        }
    }
}
