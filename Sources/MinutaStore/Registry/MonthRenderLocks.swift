import Synchronization

/// Each month's own lock for rendering its view without `state` (``MonthReplicas/renderWithoutState(_:)``):
/// two readers of one month render it once (the second finds the first's view), readers of different
/// months render at once, and a render holds up no reader or writer of another month. Taken before
/// `state` (which the render takes only to copy its inputs and to keep its view), never while holding it.
final class MonthRenderLocks: Sendable {
    /// A month's lock: a class, so it is taken outside the registry's own lock.
    private final class MonthLock: Sendable {
        let mutex = Mutex(())
    }

    /// The lock of each month rendered so far (a store has a few hundred months at most).
    private let locks = Mutex<[Month: MonthLock]>([:])

    /// Runs `body` holding `month`'s render lock.
    func withLock<R: Sendable>(of month: Month, _ body: () -> R) -> R {
        let lock = locks.withLock { locks in
            if let lock = locks[month] { return lock }
            let lock = MonthLock()
            locks[month] = lock
            return lock
        }
        return lock.mutex.withLock { _ in body() }
    }
}
