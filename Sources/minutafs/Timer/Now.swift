import Foundation
import ArgumentParser
import MinutaStore
import MinutaTimer

extension Minutafs {
    /// `minutafs now`: the running timer, for a prompt or a status bar.
    struct Now: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "now",
            abstract: "Show the running timer: tag, comment and time so far.",
            discussion: """
                Prints one line per running timer (`Work: sync bug 1:23`), or nothing with exit status 1 \
                when none runs. --json prints one line of JSON in the form waybar's and i3blocks' custom \
                modules read: {"text": "1:23 Work", "tooltip": "...", "class": "running"} ("long" for a \
                timer running more than a day, "idle" with exit status 1 when none runs). --format fills \
                %t (tag), %c (comment), %e (time so far, H:MM), %s (start), %i (record id), %% (a percent \
                sign). Text from the store is printed with control characters escaped. A store that is not \
                mounted is read merged in memory with the conflict copies waiting beside its documents \
                (nothing is written; standard error says how many). Every running timer is listed, \
                however old (one running more than a day with its age: running 3 y 2 d), found through \
                an index in the state folder. With the store mounted it reads MOUNT/.minutafs/now.txt \
                (now.json for --json), which the mount renders at each read: a status bar may cat it.

                Examples:
                  minutafs now ~/minuta
                  minutafs now --json
                  PS1='$(minutafs now --format "[%t %e] " 2>/dev/null)\\$ '
                """)

        @Flag(help: "One line of JSON for status bars (waybar, i3blocks).")
        var json = false

        @Option(help: "A template: %t tag, %c comment, %e time so far, %s start, %i id, %% percent sign.")
        var format: String?

        @OptionGroup var options: TimerOptions

        func validate() throws {
            if json && format != nil { throw ValidationError("give --json or --format, not both") }
        }

        /// Prints `now.json` or `now.txt` of the mount; whether no timer runs.
        static func printMounted(_ mountPoint: String, json: Bool) throws(CommandFailure) -> Bool {
            let place = "the mount at " + mountPoint
            func read(_ name: String) throws(CommandFailure) -> [UInt8] {
                guard let data = FileManager.default.contents(atPath: mountPoint + "/.minutafs/" + name) else {
                    throw CommandFailure(path: mountPoint + "/.minutafs/" + name, cause: "cannot be read (\(String(cString: strerror(errno)))); is the mount of an older minutafs? Unmount it and mount it again")
                }
                return [UInt8](data)
            }
            let text = try read(TimerControl.nowText)
            if text.starts(with: Array("error: ".utf8)) { throw CommandFailure(path: place, cause: String(decoding: text.dropFirst(7), as: UTF8.self)) }
            FileHandle.standardOutput.write(Data(json ? try read(TimerControl.nowJSON) : text))
            return text.isEmpty
        }

        func run() throws {
            var isIdle = false
            try reportingFailures {
                let mountPoint = try TimerPlace.mountPoint(for: TimerPlace.chosenPath(options.path))
                if format == nil, !options.allMonths, let mountPoint {
                    // Mounted: the mount renders what this prints (`.minutafs/now.txt`, `now.json`), a file read.
                    isIdle = try Self.printMounted(mountPoint, json: json)
                    return
                }
                let actions = try TimerPlace.actions(options.place, writing: false, unmounted: mountPoint == nil)
                let now = TimerPlace.now()
                let answer = try TimerPlace.perform(TimerRequest(action: .now, now: now, everyMonth: options.allMonths), actions: actions)
                let timers = answer.running.compactMap(\.timer)
                let tags = timers.isEmpty ? [] : ((try? actions.tags()) ?? [])
                let display = TimerDisplay(timers: timers, tags: tags, now: now, actions: actions)
                if json {
                    print(display.json, terminator: "")
                } else if let format {
                    print(display.formatted(format), terminator: "")
                } else {
                    print(display.text, terminator: "")
                }
                isIdle = timers.isEmpty
                if let backend = actions.backend as? StoreTimerBackend { WaitingCopiesNotice.print(for: backend.store) }
            }
            // Nothing running: exit status 1, for `if minutafs now; then ...` and prompts.
            if isIdle { throw ExitCode.failure }
        }
    }
}
