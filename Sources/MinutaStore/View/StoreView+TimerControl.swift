import FileTreeInterface

/// The timer files of a mount's `.minutafs/` (SPEC 10): `timer`, to which `minutafs start`, `stop` and
/// `continue` write one request and read its answer back on the same handle, so that the mount carries
/// out the whole action (stop what runs, start the new one) as one, under `timerControl`; `now.json`
/// and `now.txt`, what `minutafs now --json` and `minutafs now` print.
///
/// `now.json` and `now.txt` change only with a change the mount reports or with the minute, and the
/// minute is reported too (`advanceTimerMinute`): so the kernel keeps their pages between changes, and
/// a status bar's `cat` is an open and a close, answered from the page cache.
///
/// What a request means and how `now` is rendered is the timer commands' code (a layer above the
/// store): the mount registers it with ``setTimerControl(answer:now:)``. Without it, the files
/// answer that this mount does not serve timers.
public struct TimerControl: Sendable {
    public static let requestFile = "timer"
    public static let nowJSON = "now.json"
    public static let nowText = "now.txt"
    /// The paths of `now.json` and `now.txt` in the mount.
    static let nowPaths = ["/.minutafs/" + nowJSON, "/.minutafs/" + nowText]

    /// Carries out a request (its bytes) and returns the answer's bytes.
    var answer: (@Sendable ([UInt8]) -> [UInt8])?
    /// The contents of `now.json` (`true`) or `now.txt` (`false`), now.
    var now: (@Sendable (_ json: Bool) -> NowFile)?

    init() {}
}

extension StoreView {
    /// Changes with every change the mount reports (a save, a merge, a document the sync tool replaced,
    /// a removal) and with every minute (`advanceTimerMinute`): `now.json` is rendered again when it
    /// changed, and never otherwise. Each change is reported to the mount before the token moves, so the
    /// kernel never keeps the pages of an earlier rendering past a change (`report(_:)`).
    public var changeToken: [Int] {
        [reportedChanges.load(ordering: .relaxed), timerMinute.load(ordering: .relaxed)]
    }

    /// The minute changed: `now.json` and `now.txt` (their time so far) are reported changed, then
    /// rendered again at their next read. The mount calls it at every minute (`MountTimerControl`).
    public func advanceTimerMinute() {
        callChangeHandler(TreeChange(paths: TimerControl.nowPaths, keepsNames: true))
        timerMinute.add(1, ordering: .relaxed)
    }

    /// The paths of files removed through the mount whose removal waits out its grace period
    /// (`/records/2024/11/NAME.json`): gone for programs already, so the timer actions and `now.json`
    /// leave their records out (the store removes them only when the grace period ends).
    public func pendingRemovals() -> Set<String> {
        pendingWorkReporter.withLock { $0 }?.report().removals ?? []
    }

    /// Registers what answers `.minutafs/timer` and renders `now.json` and `now.txt`.
    public func setTimerControl(answer: @escaping @Sendable ([UInt8]) -> [UInt8], now: @escaping @Sendable (_ json: Bool) -> NowFile) {
        timerControl.withLock { control in
            control.answer = answer
            control.now = now
        }
    }

    /// `now.json`, `now.txt` (rendered with every timer action done: it waits for one under way), or
    /// nothing for `timer` itself (its answer is on the handle that asked).
    func timerControlFile(_ name: String) -> NowFile {
        guard name != TimerControl.requestFile else { return NowFile(contents: [], renderedAt: TreeTime(seconds: 0, nanoseconds: 0), followsReports: false) }
        return timerControl.withLock { control in
            guard let now = control.now else {
                return NowFile(contents: Array("this mount does not serve timers\n".utf8), renderedAt: TreeTime(seconds: 0, nanoseconds: 0), followsReports: true)
            }
            return now(name == TimerControl.nowJSON)
        }
    }

    /// The answer to a request written to `.minutafs/timer`, carried out whole under `timerControl`;
    /// nil for any other path (an ordinary save).
    public func answer(_ request: [UInt8], atPath path: String) throws(TreeError) -> [UInt8]? {
        guard path == "/.minutafs/" + TimerControl.requestFile else { return nil }
        return timerControl.withLock { control in
            guard let answer = control.answer else { return Array(#"{"error": "this mount does not serve timer requests"}"#.utf8) + [10] }
            return answer(request)
        }
    }

    /// Saves a record file for a timer action of the mount, as a program's save through the mount
    /// would be saved, and tells the mount every path it changed (the saved one too: the mount did
    /// not see this save come in).
    public func writeRecordForTimer(_ bytes: [UInt8], named name: String, in month: Month) throws(StoreError) -> Store.WriteOutcome {
        let outcome = try store.writeRecordFile(bytes, named: name, in: month)
        var changed = ["/" + month.folderPath, "/" + month.folderPath + "/" + name, "/" + outcome.month.folderPath,
                       "/" + outcome.month.folderPath + "/" + outcome.fileName]
        for touched in outcome.touchedMonths { changed.append("/" + touched.folderPath) }
        changed += reportPaths(showing: [month, outcome.month] + outcome.touchedMonths)
        report(changed)
        return outcome
    }

    /// Removes a record file for a timer action of the mount (`start --adjust`, `cancel`, `undo`) and
    /// tells the mount what changed.
    public func removeRecordForTimer(named name: String, in month: Month) throws(StoreError) {
        try store.deleteRecordFile(named: name, in: month)
        report(["/" + month.folderPath, "/" + month.folderPath + "/" + name] + reportPaths(showing: [month]))
    }

    /// Saves `tags.json` for a timer action of the mount (a tag `start --tag` created) and tells the
    /// mount what changed.
    public func writeTagsForTimer(_ bytes: [UInt8]) throws(StoreError) {
        _ = try store.writeTagsFile(bytes)
        report(["/tags.json"] + reportPaths(showing: (try? store.months()) ?? []))
    }
}
