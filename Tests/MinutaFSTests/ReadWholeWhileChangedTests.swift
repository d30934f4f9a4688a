import Foundation
import Testing

@testable import MinutaTimer

/// The timer commands read the mount's files (`tags.json`, records, `.minutafs/timer`'s answers) while
/// other commands change them. A reader that trusts the size `stat` gave when it opened a file reads a
/// newer version cut at the older length: `tags.json` then does not parse, and `start` would name the
/// timer it stopped "(unknown tag)" while other starts add tags.
@Suite("Files read whole while they change")
struct ReadWholeWhileChangedTests {
    @Test("a file grown since the kernel cached its size is read to its end, not cut at that size")
    func readToTheEnd() throws {
        try MountedTree.with { mounted in
            let path = mounted.path("/tags.json")
            let before = try #require(mounted.tree.text(at: "/tags.json"))
            #expect(try mounted.run("stat", ["-c", "%s", path]).outputText == "\(before.utf8.count)\n")
            // Changed without a report: the kernel keeps the old size for its attribute timeout.
            let grown = before + String(repeating: " ", count: 100) + "\n"
            mounted.tree.put(file: "/tags.json", grown)
            #expect(try mounted.run("stat", ["-c", "%s", path]).outputText == "\(before.utf8.count)\n", "the kernel's size is the old one")
            #expect(try MountTimerBackend.read(path) == Array(grown.utf8))
        }
    }
}
