import ArgumentParser

/// The options `start`, `stop`, `now` and `continue` share.
struct TimerOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "The store folder or its mount. Default: $MINUTAFS_STORE, else `store = \"PATH\"` in $XDG_CONFIG_HOME/minutafs/config (TOML; ~ is the home folder).",
        valueName: "path"), completion: .directory)
    var path: String?

    @Option(help: "The store's time zone when it is not mounted (default: the machine's). A mount uses its own.")
    var timezone: String?

    @Flag(help: "Read every month for running timers, rebuilding the running-timer index (kept in the state folder).")
    var allMonths = false

    var place: TimerPlace.Options {
        TimerPlace.Options(path: path, timeZone: timezone, searchesAllMonths: allMonths)
    }
}
