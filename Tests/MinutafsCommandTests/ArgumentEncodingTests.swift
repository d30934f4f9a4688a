import Foundation
import Testing
import TestSupport

/// An argument that is not UTF-8 (`--tag $'bad\xff'`) is a usage error naming it, exit 64; nothing is
/// created with U+FFFD in its place.
struct ArgumentEncodingTests {
    @Test("a tag, a comment or a path that is not UTF-8 is refused, naming the argument and its bytes; the store is unchanged")
    func refused() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/store"
            let demo = try MinutafsBinary.run(["demo", store, "--now", "2024-11-24T12:00:00Z", "--timezone", "UTC"])
            try #require(demo.status == 0, "\(demo.errorText)")
            let before = try folderSnapshot(store)
            let binary = try MinutafsBinary.path()
            let cases: [(script: String, position: Int, shown: String)] = [
                (#"exec "$0" start --timezone UTC --tag "$(printf 'bad\377')" "$1""#, 5, #"bad\xff"#),
                (#"exec "$0" track --timezone UTC --comment "$(printf 'caf\303\251 \300\257')" 2024-11-20T09:00 - 2024-11-20T10:00 "$1""#, 5, #"café \xc0\xaf"#),
                (#"exec "$0" check "$1/$(printf '\377')""#, 2, "\(store)/\\xff"),
            ]
            for (script, position, shown) in cases {
                let result = try MinutafsBinary.run(["-c", script, binary, store], executable: "/bin/sh")
                #expect(result.status == 64, "\(script): \(result.errorText)")
                #expect(result.errorText.contains("argument \(position) (\(shown)) is not valid UTF-8"), "\(script): \(result.errorText)")
            }
            #expect(try folderSnapshot(store) == before)
            // The store named by MINUTAFS_STORE, the same way (Foundation would read another folder's name).
            let fromEnvironment = try MinutafsBinary.run(
                ["-c", #"MINUTAFS_STORE="$1$(printf '\377')" exec "$0" now"#, binary, store], executable: "/bin/sh")
            #expect(fromEnvironment.status == 1 && fromEnvironment.errorText.contains("MINUTAFS_STORE: \(store)\\xff is not valid UTF-8"),
                    "\(fromEnvironment.errorText)")
        }
    }
}
