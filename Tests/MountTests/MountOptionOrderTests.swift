import Foundation
import Testing
import TestSupport

/// `ro` and `rw` in `-o` (and in fstab): as mount(8) does, the last one wins.
struct MountOptionOrderTests {
    /// The mount options the kernel lists for `path` in /proc/self/mountinfo.
    static func kernelOptions(of path: String) throws -> [Substring] {
        let table = try String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)
        let line = try #require(table.split(separator: "\n").first { $0.split(separator: " ").count > 5 && $0.split(separator: " ")[4] == path })
        return line.split(separator: " ")[5].split(separator: ",")
    }

    @Test("-o ro,rw mounts read-write and -o rw,ro read-only", arguments: [("ro,rw", "rw"), ("rw,ro", "ro")])
    func lastWins(options: String, expected: String) throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder, options: [options])
            defer { mounted.unmount() }
            #expect(try Self.kernelOptions(of: mounted.mountPoint).first == Substring(expected))
        }
    }
}
