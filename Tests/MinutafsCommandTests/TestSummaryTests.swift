import Foundation
import Testing
import TestSupport

/// `tools/test-summary`, the line `make test` ends with: the counts come from swift-testing's log, and
/// its exit status says whether the suite (or the fuzzing run) failed.
struct TestSummaryTests {
    /// Runs the script on `log` with the given statuses; its output line and exit status.
    func summary(of log: String, testStatus: Int32, fuzzStatus: String? = nil) throws -> (line: String, status: Int32) {
        try withTemporaryDirectory { folder in
            let path = folder + "/test.log"
            try Data(log.utf8).write(to: URL(fileURLWithPath: path))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [Fixtures.packageRoot + "/tools/test-summary", path, String(testStatus)] + (fuzzStatus.map { [$0] } ?? [])
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines), process.terminationStatus)
        }
    }

    @Test("passed is swift-testing's total less the failed and skipped, even when per-test lines are missing from the log")
    func totalFromTheRunLine() throws {
        let log = """
            ✔ Test "one" passed after 0.1 seconds.
            ✘ Test "two" failed after 0.1 seconds with 1 issue.
            ➜ Test "three" skipped: "no FUSE here"
            ✘ Test run with 6 tests in 2 suites failed after 0.3 seconds with 1 issue.

            """
        let result = try summary(of: log, testStatus: 1)
        #expect(result.line == "tests: 4 passed, 1 failed, 1 skipped (1 because no FUSE here); swift test exited with 1")
        #expect(result.status == 1)
    }

    @Test("without swift-testing's last line the per-test lines are counted; a fuzzing failure fails the summary")
    func countedWithoutTheRunLine() throws {
        let log = """
            ✔ Test "one" passed after 0.1 seconds.
            ✔ Test "two" with 3 test cases passed after 0.1 seconds.

            """
        let passed = try summary(of: log, testStatus: 0, fuzzStatus: "0")
        #expect(passed.line == "tests: 2 passed, 0 failed, 0 skipped; fuzzing: no crash")
        #expect(passed.status == 0)
        let fuzzFailed = try summary(of: log, testStatus: 0, fuzzStatus: "77")
        #expect(fuzzFailed.line == "tests: 2 passed, 0 failed, 0 skipped; fuzzing FAILED (status 77)")
        #expect(fuzzFailed.status == 1)
    }
}
