import Foundation
import MinutaStore
import MinutaTimer

/// What a mount answers in `.minutafs/timer`, `now.json` and `now.txt` (SPEC 10): the timer commands'
/// actions carried out on the mount's own store, so a start through the mount is one action of the
/// mount (the view holds its `timerControl` lock for the whole of it), and `now` is a file read.
enum MountTimerControl {
    static func register(on view: StoreView, stateDirectory: String?) {
        let indexPath = stateDirectory.map { RunningTimerIndex.path(stateFolder: $0, storePath: view.store.path) }
        let actions = TimerActions(backend: StoreTimerBackend(store: view.store, lock: nil, indexPath: indexPath, view: view,
                                                                indexCache: RunningTimerIndexCache()))
        view.setTimerControl(
            answer: { request in TimerService.answer(request, with: actions) },
            now: { json in Array(render(actions, json: json).utf8) })
    }

    /// What `minutafs now --json` (or `minutafs now`) prints for the running timers now; a line
    /// naming the failure when they cannot be read.
    static func render(_ actions: TimerActions, json: Bool) -> String {
        let now = TimerPlace.now()
        do throws(TimerError) {
            let timers = try actions.running(now: now)
            let tags = timers.isEmpty ? [] : ((try? actions.tags()) ?? [])
            let display = TimerDisplay(timers: timers, tags: tags, now: now, actions: actions)
            return json ? display.json : display.text
        } catch {
            return json ? "{\"text\": \"error\", \"tooltip\": \(JSONWriter.string(error.description)), \"class\": \"error\"}\n" : "error: \(error.description)\n"
        }
    }
}
