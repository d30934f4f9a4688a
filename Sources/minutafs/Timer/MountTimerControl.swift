import Foundation
import MinutaStore
import MinutaTimer

/// What a mount answers in `.minutafs/timer`, `now.json` and `now.txt` (SPEC 10): the timer commands'
/// actions carried out on the mount's own store, so a start through the mount is one action of the
/// mount (the view holds its `timerControl` lock for the whole of it), and `now` is a file read.
enum MountTimerControl {
    static func register(on view: StoreView, stateDirectory: String?) {
        let indexPath = stateDirectory.map { RunningTimerIndex.path(stateFolder: $0, storePath: view.store.path) }
        let indexCache = RunningTimerIndexCache()
        let actions = TimerActions(backend: StoreTimerBackend(store: view.store, lock: nil, indexPath: indexPath, view: view,
                                                                indexCache: indexCache))
        let rendered = RenderedNow()
        view.setTimerControl(
            answer: { request in TimerService.answer(request, with: actions) },
            now: { json in render(actions, json: json, kept: rendered, changeToken: view.changeToken, removals: view.pendingRemovals()) })
    }

    /// `now.json` and `now.txt` as last rendered, and what they were rendered from. Used only under
    /// the view's `timerControl` lock, as `RunningTimerIndexCache` is.
    final class RenderedNow: @unchecked Sendable {
        struct Source: Equatable {
            var minute: Int64
            var changeToken: [Int]
            /// Files removed through the mount, waiting out their grace period: their records are gone
            /// for `now` at once, and back when the file is saved again before it ends.
            var removals: Set<String>
        }
        var source: Source?
        var json: [UInt8] = []
        var text: [UInt8] = []
    }

    /// What `minutafs now --json` (waybar's form) or `minutafs now` prints for the running timers now; a line
    /// naming the failure when they cannot be read. Rendered again only when the minute changed or
    /// the mount changed a document or was told of a change (`StoreView.changeToken`), or a file was
    /// removed through the mount (`StoreView.pendingRemovals`): a status bar polling the file costs no
    /// look at the store.
    static func render(_ actions: TimerActions, json: Bool, kept: RenderedNow, changeToken: [Int], removals: Set<String>) -> [UInt8] {
        let now = TimerPlace.now()
        let source = RenderedNow.Source(minute: now / 60_000, changeToken: changeToken, removals: removals)
        if kept.source == source { return json ? kept.json : kept.text }
        do throws(TimerError) {
            let timers = try actions.running(now: now)
            let tags = timers.isEmpty ? [] : ((try? actions.tags()) ?? [])
            let display = TimerDisplay(timers: timers, tags: tags, now: now, actions: actions)
            kept.json = Array(display.json.utf8)
            kept.text = Array(display.text.utf8)
            kept.source = source
            return json ? kept.json : kept.text
        } catch {
            kept.source = nil
            let line = json ? TimerDisplay.waybarError(error.description) : "error: \(error.description)\n"
            return Array(line.utf8)
        }
    }
}
