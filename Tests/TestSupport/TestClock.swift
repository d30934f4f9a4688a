import Foundation
import Synchronization

/// A clock a test sets: seconds since the epoch, starting at the wall clock's, moved on only by
/// ``advance(by:)``. Passed to a store (`Store(clock: clock.now)`), it replaces waiting for the wall
/// clock's second to change.
public final class TestClock: Sendable {
    private let seconds: Mutex<Int>

    public init(startingAt start: Int = Int(Date().timeIntervalSince1970)) {
        seconds = Mutex(start)
    }

    /// The clock's time, for `Store(clock:)`.
    public var now: @Sendable () -> Int { { [self] in seconds.withLock { $0 } } }

    public func advance(by delta: Int = 1) {
        seconds.withLock { $0 += delta }
    }
}
