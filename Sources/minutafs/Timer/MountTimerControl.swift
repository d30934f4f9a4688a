import Foundation
import MinutaStore
import MinutaTimer
import FileTreeInterface
import SystemPackage

/// What a mount answers in `.minutafs/timer`, `now.json` and `now.txt` (SPEC 10): the timer commands'
/// actions carried out on the mount's own store, so a start through the mount is one action of the
/// mount (the view holds its `timerControl` lock for the whole of it), and `now` is a file read.
enum MountTimerControl {
    static func register(on view: StoreView, stateDirectory: String?) {
        let indexPath = stateDirectory.map { RunningTimerIndex.path(stateFolder: $0, storePath: view.store.folder.string) }
        let indexCache = RunningTimerIndexCache()
        let actions = TimerActions(backend: StoreTimerBackend(store: view.store, lock: nil, indexPath: indexPath, view: view,
                                                                indexCache: indexCache))
        let rendered = RenderedNow()
        view.setTimerControl(
            answer: { request in TimerService.answer(request, with: actions) },
            now: { json in render(actions, json: json, kept: rendered, changeToken: view.changeToken, removals: view.pendingRemovals()) })
        countMinutes(for: view)
    }

    /// `now.json` and `now.txt` as last rendered, and what they were rendered from. Used only under
    /// the view's `timerControl` lock, as `RunningTimerIndexCache` is.
    final class RenderedNow: @unchecked Sendable {
        /// What they were rendered from: the view's change token, and the files removed through the mount
        /// that wait out their grace period (their records are gone for `now` at once, and back when the
        /// file is saved again before it ends).
        var source: (changeToken: [Int], removals: Set<String>)?
        var json: [UInt8] = []
        var text: [UInt8] = []
        /// When they were rendered: later for every rendering.
        var renderedAt = TreeTime(seconds: 0, nanoseconds: 0)
    }

    /// What `minutafs now --json` (waybar's form) or `minutafs now` prints for the running timers now; a line
    /// naming the failure when they cannot be read. Rendered again only when the mount changed a
    /// document, was told of a change, or counted a minute (`StoreView.changeToken`), or a file was
    /// removed through the mount (`StoreView.pendingRemovals`, reported as a change too): a status bar
    /// polling the file costs no look at the store, and the kernel keeps its pages meanwhile.
    static func render(_ actions: TimerActions, json: Bool, kept: RenderedNow, changeToken: [Int], removals: Set<String>) -> NowFile {
        if let source = kept.source, source.changeToken == changeToken, source.removals == removals {
            return NowFile(contents: json ? kept.json : kept.text, renderedAt: kept.renderedAt, followsReports: true)
        }
        let now = TimerPlace.now()
        kept.renderedAt = laterThan(kept.renderedAt)
        do throws(TimerError) {
            let timers = try actions.running(now: now)
            let tags = timers.isEmpty ? [] : ((try? actions.tags()) ?? [])
            let display = TimerDisplay(timers: timers, tags: tags, now: now, actions: actions)
            kept.json = Array(display.json.utf8)
            kept.text = Array(display.text.utf8)
            kept.source = (changeToken, removals)
            return NowFile(contents: json ? kept.json : kept.text, renderedAt: kept.renderedAt, followsReports: true)
        } catch {
            kept.source = nil
            let line = json ? TimerDisplay.waybarError(error.description) : "error: \(error.description)\n"
            return NowFile(contents: Array(line.utf8), renderedAt: kept.renderedAt, followsReports: false)
        }
    }

    /// The clock's time now, or a nanosecond after `earlier` if the clock has not passed it.
    private static func laterThan(_ earlier: TreeTime) -> TreeTime {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        let now = TreeTime(seconds: Int64(clock.tv_sec), nanoseconds: Int32(clock.tv_nsec))
        guard now <= earlier else { return now }
        return earlier.nanoseconds < 999_999_999
            ? TreeTime(seconds: earlier.seconds, nanoseconds: earlier.nanoseconds + 1)
            : TreeTime(seconds: earlier.seconds + 1, nanoseconds: 0)
    }

    /// Counts every minute on the clock for `view` (`StoreView.advanceTimerMinute`), from a thread of
    /// its own, for as long as the view lives: `now.json`'s time so far follows the clock.
    static func countMinutes(for view: StoreView) {
        let thread = Thread { [weak view] in
            while view != nil {
                // A moment past the next minute of the clock, so the minute rendered is the new one.
                let millisecondsIntoMinute = Int(TimerPlace.now() % 60_000)
                usleep(UInt32(60_000 - millisecondsIntoMinute + 5) * 1000)
                guard let view else { return }
                view.advanceTimerMinute()
            }
        }
        thread.name = "minutafs minute"
        thread.start()
    }
}
