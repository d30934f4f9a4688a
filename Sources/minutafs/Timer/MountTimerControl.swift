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
            now: { json in render(actions, json: json, kept: rendered, index: indexCache, tagsPath: view.store.path + "/tags.automerge") })
    }

    /// `now.json` and `now.txt` as last rendered, and what they were rendered from. Used only under
    /// the view's `timerControl` lock, as `RunningTimerIndexCache` is.
    final class RenderedNow: @unchecked Sendable {
        struct Source: Equatable {
            var minute: Int64
            var index: RunningTimerIndex?
            var tags: String
        }
        var source: Source?
        var json: [UInt8] = []
        var text: [UInt8] = []
    }

    /// What `minutafs now --json` (or `minutafs now`) prints for the running timers now; a line
    /// naming the failure when they cannot be read. Rendered again only when the minute, a document
    /// holding a running timer (by its files' identities) or the tags changed: a status bar polling
    /// the file costs a look at the files' identities.
    static func render(_ actions: TimerActions, json: Bool, kept: RenderedNow, index: RunningTimerIndexCache, tagsPath: String) -> [UInt8] {
        let now = TimerPlace.now()
        do throws(TimerError) {
            _ = try actions.backend.runningTimerFiles(everyMonth: false)
            let tags = (try? FileManager.default.attributesOfItem(atPath: tagsPath)).map { "\($0[.size] ?? 0) \($0[.modificationDate] ?? 0)" } ?? ""
            let source = RenderedNow.Source(minute: now / 60_000, index: index.index, tags: tags)
            if kept.source != source {
                let timers = try actions.running(now: now)
                let tags = timers.isEmpty ? [] : ((try? actions.tags()) ?? [])
                let display = TimerDisplay(timers: timers, tags: tags, now: now, actions: actions)
                kept.json = Array(display.json.utf8)
                kept.text = Array(display.text.utf8)
                kept.source = source
            }
            return json ? kept.json : kept.text
        } catch {
            kept.source = nil
            let line = json ? "{\"text\": \"error\", \"tooltip\": \(JSONWriter.string(error.description)), \"class\": \"error\"}\n" : "error: \(error.description)\n"
            return Array(line.utf8)
        }
    }
}
