import Foundation

/// A fixed point at which a command kills itself, for the tests that check what an interrupted
/// run leaves behind (issue 18): `MINUTAFS_STOP_AT=NAME:N` makes the process send itself
/// SIGKILL when step `N` of the stage `NAME` is done (`backup:3` after the third file is in the
/// backup, `write:1` after the first document is written). Without the variable nothing happens.
/// A kill at a named point, rather than after a random sleep, makes those tests repeatable.
enum StopPoint {
    /// Called after step `done` of `stage`; does not return when the variable names this point.
    static func reached(_ stage: String, _ done: Int) {
        guard let wanted = ProcessInfo.processInfo.environment["MINUTAFS_STOP_AT"], wanted == "\(stage):\(done)" else { return }
        kill(getpid(), SIGKILL)
    }
}
