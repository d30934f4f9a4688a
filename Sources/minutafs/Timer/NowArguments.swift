/// The arguments of `minutafs now` as a status bar or a prompt gives them, read without building the
/// command tree: `minutafs now` runs every few seconds, and swift-argument-parser builds every
/// option of the command by reflection before it reads one, about a millisecond of a `now` that
/// takes a few. `Now`'s declarations stay the interface: only the plain forms are read here (each
/// flag or option once, `--option VALUE` or `--option=VALUE`, at most one path), and anything else
/// (help, a completion request, `--`, a value that starts with `-`, a repeated option, a mistake)
/// is nil, so that the parser reads it and says what it always says.
struct NowArguments {
    var form: NowForm
    var place: TimerPlace.Options

    init?(_ arguments: some Collection<String>) {
        var json = false, i3blocks = false, allMonths = false
        var format: String?, timeZone: String?, path: String?
        var seen: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("-") else {
                guard path == nil, !argument.isEmpty else { return nil }
                path = argument
                continue
            }
            var name = argument, value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard !seen.contains(name) else { return nil }
            seen.append(name)
            switch name {
            case "--json", "--i3blocks", "--all-months":
                guard value == nil else { return nil }
                if name == "--json" { json = true } else if name == "--i3blocks" { i3blocks = true } else { allMonths = true }
            case "--format", "--timezone":
                if value == nil { value = rest.popFirst() }
                guard let value, !value.hasPrefix("-") else { return nil }
                if name == "--format" { format = value } else { timeZone = value }
            default:
                return nil
            }
        }
        guard let form = try? NowForm(json: json, i3blocks: i3blocks, format: format) else { return nil }
        self.form = form
        self.place = TimerPlace.Options(path: path, timeZone: timeZone, searchesAllMonths: allMonths)
    }
}
