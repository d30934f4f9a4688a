import ArgumentParser
import Foundation
import MinutaStore
import MinutaTimer

/// What the shell completions (`minutafs --generate-completion-script bash|zsh|fish`) offer for the
/// timer commands' values: `--tag` the store's tag names, read when TAB is pressed by minutafs itself
/// from the store the command line names (else the configured one); `--at` a few of the forms it takes.
enum TimerCompletions {
    static let tag = CompletionKind.custom { words, index, prefix in tagNames(words: words, index: index, prefix: prefix) }
    static let at = CompletionKind.custom { words, index, prefix in
        timeForms(now: Date(), prefix: words.indices.contains(index) ? words[index] : prefix)
    }

    /// The options of the timer commands that take a value: the word after one is not the store's path.
    static let valueOptions: Set<String> = ["--tag", "--comment", "--at", "--timezone", "--format"]

    /// The names of the store's tags that are not archived and begin with `prefix` (in any case);
    /// none when the store cannot be read (a completion never prints an error).
    static func tagNames(words: [String], index: Int, prefix: String) -> [String] {
        guard let actions = try? TimerPlace.actions(TimerPlace.Options(path: storePath(in: words, completing: index), timeZone: nil, searchesAllMonths: false), writing: false),
              let tags = try? actions.tags() else { return [] }
        // ArgumentParser 1.8 cuts `prefix` from the line's last word, not the one completed: use that word.
        let typed = words.indices.contains(index) ? words[index] : prefix
        let unquoted = typed.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        return tags.filter { !$0.isArchived && $0.name.lowercased().hasPrefix(unquoted.lowercased()) }.map(\.name)
            .filter { !$0.contains("\n") }.sorted()
    }

    /// The last word on the command line that names a folder and is not an option or an option's value.
    static func storePath(in words: [String], completing index: Int) -> String? {
        var found: String?
        for position in words.indices.dropFirst() where position != index {
            let word = words[position]
            if word.hasPrefix("-") || valueOptions.contains(words[position - 1]) { continue }
            let path = TimerPlace.expanded(word)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { found = path }
        }
        return found
    }

    /// `now`, offsets back from now, and the time now rounded down to five minutes as `HH:MM`.
    static func timeForms(now: Date, prefix: String) -> [String] {
        let parts = Calendar.current.dateComponents([.hour, .minute], from: now)
        let minute = (parts.minute ?? 0) / 5 * 5
        let clock = String(format: "%02d:%02d", parts.hour ?? 0, minute)
        return ["now", "-5m", "-15m", "-30m", "-1h", clock].filter { $0.hasPrefix(prefix) }
    }
}
