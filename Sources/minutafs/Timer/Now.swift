import Foundation
import ArgumentParser
import MinutaStore
import MinutaTimer
import SystemPackage

extension Minutafs {
    /// `minutafs now`: the running timer, for a prompt or a status bar.
    struct Now: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "now",
            abstract: "Show the running timer: tag, comment and time so far.",
            discussion: """
                Prints one line per running timer (`Work: sync bug 1:23`), or nothing with exit status 1 \
                when none runs. The status bar forms print one timer, the newest, with "+1" when \
                another runs; when none runs they exit 0, and on an error they print their error form \
                and exit 1 (the message on standard error too).

                --json (or --format waybar) prints one line of JSON for waybar's custom module: \
                {"text": "1:23 Work", "alt": "running", "tooltip": "Work: sync bug (since 09:37)", \
                "class": "running", "percentage": 17}; class and alt are "long" for a timer running \
                more than a day, "idle" when none runs, "error" on an error; percentage is the time so \
                far against 8 hours; text and tooltip are Pango markup (a tag "Meetings & Calls" is \
                printed "Meetings &amp; Calls").

                --i3blocks (or --format i3blocks) prints the lines an i3blocks block reads: full_text \
                (1:23 Work: sync bug), short_text (1:23 Work), and a color for a timer running more \
                than a day; nothing when none runs.

                --format TEMPLATE fills {tag} (or %t), {comment} (%c), {elapsed} (%e, H:MM), {start} \
                (%s), {id} (%i), {more} (%m, "+1" when another timer runs, else added at the end) and \
                %% (a percent sign) for the newest timer, one line; an empty line when none runs (polybar \
                hides the module then, a prompt's $(...) drops it). Text from the store is printed with \
                control characters escaped (and polybar's %{ defused). A store that is not mounted is \
                read merged in memory with the conflict copies waiting beside its documents (nothing is \
                written; standard error says how many). Every running timer is seen, however old (one \
                running more than a day with its age: running 3 y 2 d), found through an index in the \
                state folder. With the store mounted it reads MOUNT/.minutafs/now.txt (now.json for \
                --json), which the mount keeps current: a status bar may cat it.

                Examples:
                  minutafs now ~/minuta
                  minutafs now --json
                  minutafs now --i3blocks ~/minuta
                  minutafs now --format '{elapsed} {tag}' ~/minuta
                  PS1='$(minutafs now --format "[%t %e] " 2>/dev/null)\\$ '
                """)

        @Flag(help: "One line of JSON for waybar's custom module (the same as --format waybar).")
        var json = false

        @Flag(help: "The lines an i3blocks block reads (the same as --format i3blocks).")
        var i3blocks = false

        @Option(help: "waybar, i3blocks, or a template: {tag} {comment} {elapsed} {start} {id} {more} (or %t %c %e %s %i %m), %% a percent sign.")
        var format: String?

        @OptionGroup var options: TimerOptions

        func validate() throws {
            _ = try NowForm(json: json, i3blocks: i3blocks, format: format)
        }

        /// Prints `now.json` or `now.txt` of the mount; whether no timer runs.
        static func printMounted(_ mountPoint: String, json: Bool) throws(CommandFailure) -> Bool {
            let place = "the mount at " + mountPoint
            // To the end, whatever size `stat` gave: the mount renders them again as timers change.
            func read(_ name: String) throws(CommandFailure) -> [UInt8] {
                let path = mountPoint + "/.minutafs/" + name
                do { return try DocumentFileAccess.read(FilePath(path)) } catch {
                    var reason = "\(error)"
                    if case .system(_, _, let code) = error { reason = "\(code)" }
                    throw CommandFailure(path: path, cause: "cannot be read (\(reason)); is the mount of an older minutafs? Unmount it and mount it again")
                }
            }
            let text = try read(TimerControl.nowText)
            if text.starts(with: Array("error: ".utf8)) { throw CommandFailure(path: place, cause: String(decoding: text.dropFirst(7), as: UTF8.self)) }
            FileHandle.standardOutput.write(Data(json ? try read(TimerControl.nowJSON) : text))
            return text.isEmpty
        }

        func run() throws {
            try Self.show(NowForm(json: json, i3blocks: i3blocks, format: format), place: options.place)
        }

        /// Prints the running timers in `form`, for the store `place` names.
        static func show(_ form: NowForm, place: TimerPlace.Options) throws {
            var isIdle = false
            try reportingFailures {
                let mountPoint = try TimerPlace.mountPoint(for: TimerPlace.chosenPath(place.path))
                if form == .lines || form == .waybar, !place.searchesAllMonths, let mountPoint {
                    // Mounted: the mount renders what this prints (`.minutafs/now.txt`, `now.json`), a file read.
                    isIdle = try printMounted(mountPoint, json: form == .waybar)
                    return
                }
                let actions = try TimerPlace.actions(place, writing: false, unmounted: mountPoint == nil)
                let now = TimerPlace.now()
                let answer = try TimerPlace.perform(TimerRequest(action: .now, now: now, everyMonth: place.searchesAllMonths), actions: actions)
                let timers = answer.running.compactMap(\.timer)
                let tags = timers.isEmpty ? [] : ((try? actions.tags()) ?? [])
                let display = TimerDisplay(timers: timers, tags: tags, now: now, actions: actions)
                switch form {
                case .lines: print(display.text, terminator: "")
                case .waybar: print(display.json, terminator: "")
                case .i3blocks: print(display.i3blocks, terminator: "")
                case .template(let template): print(display.formatted(template))
                }
                isIdle = timers.isEmpty
                if let backend = actions.backend as? StoreTimerBackend { WaitingCopiesNotice.print(for: backend.store) }
            } onFailure: { line in
                // The bar's error form on standard output (the line went to standard error too).
                switch form {
                case .waybar: print(TimerDisplay.waybarError(line), terminator: "")
                case .i3blocks: print(TimerDisplay.i3blocksError(line), terminator: "")
                case .lines, .template: break
                }
            }
            // Nothing running: exit status 1, for `if minutafs now; then ...`; the bar forms exit 0.
            if isIdle && !form.idleIsSuccess { throw ExitCode.failure }
        }
    }
}
