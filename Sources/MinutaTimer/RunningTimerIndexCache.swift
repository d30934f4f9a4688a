/// A mount's running-timer index, kept in memory between looks (each read of `now.json` looks), and
/// written to the state folder only when it changed.
///
/// Not locked itself: it is used only by the mount's timer actions and `now` renderings, which the
/// store view runs one at a time under its `timerControl` lock (`StoreView+TimerControl.swift`).
public final class RunningTimerIndexCache: @unchecked Sendable {
    public internal(set) var index: RunningTimerIndex?

    public init() {}
}
