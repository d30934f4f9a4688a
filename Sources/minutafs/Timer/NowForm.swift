import ArgumentParser

/// How `minutafs now` prints what runs, chosen by `--json`, `--i3blocks` and `--format`.
enum NowForm: Equatable {
    /// A line per running timer, for a terminal; nothing and exit status 1 when none runs.
    case lines
    /// waybar's custom-module JSON (`--json`, `--format waybar`, `--format json`).
    case waybar
    /// i3blocks' lines (`--i3blocks`, `--format i3blocks`).
    case i3blocks
    /// A template filled in for the newest timer (polybar, a prompt).
    case template(String)

    /// The names `--format` takes besides a template.
    static let named: [String: NowForm] = ["waybar": .waybar, "json": .waybar, "i3blocks": .i3blocks]

    init(json: Bool, i3blocks: Bool, format: String?) throws(ValidationError) {
        let chosen = [json ? NowForm.waybar : nil, i3blocks ? NowForm.i3blocks : nil, format.map { Self.named[$0] ?? .template($0) }]
            .compactMap { $0 }
        guard chosen.count <= 1 else { throw ValidationError("give one of --json, --i3blocks and --format") }
        self = chosen.first ?? .lines
    }

    /// Whether no timer running is a success (exit status 0): bars hide a module whose command fails
    /// (waybar), or keep showing its last output (polybar), so idle must not be a failure for them.
    var idleIsSuccess: Bool { self != .lines }
}
