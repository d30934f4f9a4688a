import Foundation

/// A fixed point at which a command kills itself, for the tests that check what an interrupted
/// run leaves behind: `MINUTAFS_STOP_AT=NAME:N` makes the process send itself
/// SIGKILL when step `N` of the stage `NAME` is done (`backup:3` after the third file is in the
/// backup, `write:1` after the first document is written). Without the variable nothing happens.
/// A kill at a named point, rather than after a random sleep, makes those tests repeatable.
///
/// `MINUTAFS_PAUSE_AT=NAME:FILE` makes the command create FILE when it reaches the point `NAME`
/// (`verify`: the documents are written, the verification has not started) and wait until FILE
/// is removed (at most a minute), so a test can change the store at exactly that point.
enum StopPoint {
    /// Called at the point `name`; returns at once unless the variable names it.
    static func pause(_ name: String) {
        guard let wanted = ProcessInfo.processInfo.environment["MINUTAFS_PAUSE_AT"], wanted.hasPrefix(name + ":") else { return }
        let marker = String(wanted.dropFirst(name.count + 1))
        guard FileManager.default.createFile(atPath: marker, contents: nil) else { return }
        let deadline = Date().addingTimeInterval(60)
        while FileManager.default.fileExists(atPath: marker) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
    }


    /// Called after step `done` of `stage`; does not return when the variable names this point.
    static func reached(_ stage: String, _ done: Int) {
        guard let wanted = ProcessInfo.processInfo.environment["MINUTAFS_STOP_AT"], wanted == "\(stage):\(done)" else { return }
        kill(getpid(), SIGKILL)
    }
}
