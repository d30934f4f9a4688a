import Dispatch
import Synchronization

/// System-call failures a test makes the store see, to prove each is handled (a folder whose fsync
/// fails, a file system that cannot exchange files). Each applies to paths under one folder, so tests
/// running at the same time do not see each other's. Empty outside tests.
package enum FaultInjection {
    package enum Point: Hashable, Sendable {
        /// `fsync` of a folder after a rename or unlink (``BackingFiles/syncDirectory(_:)``).
        case fsyncDirectory
        /// `renameat2(RENAME_EXCHANGE)` of a document over its file: reported unsupported (`inject`), so the
        /// rename fallback runs, or held (`hold`, under the document's path) just before it is made.
        case exchange
    }

    private static let failures = Mutex<[(point: Point, folder: String, errno: Int32)]>([])
    private static let delays = Mutex<[(point: Point, folder: String, milliseconds: Int)]>([])

    /// Makes `point` fail with `code` (an errno value) for paths under `folder` until ``clear(_:under:)``.
    package static func inject(_ point: Point, errno code: Int32, under folder: String) {
        failures.withLock { $0.append((point, folder, code)) }
    }

    package static func clear(_ point: Point, under folder: String) {
        failures.withLock { $0.removeAll { $0.point == point && $0.folder == folder } }
    }

    /// Makes `point` take `milliseconds` longer (a slow disk) for paths under `folder` until
    /// ``clearDelay(_:under:)``.
    package static func delay(_ point: Point, milliseconds: Int, under folder: String) {
        delays.withLock { $0.append((point, folder, milliseconds)) }
    }

    package static func clearDelay(_ point: Point, under folder: String) {
        delays.withLock { $0.removeAll { $0.point == point && $0.folder == folder } }
    }

    /// A system call a test holds until it lets it go: the test learns when a thread is inside it
    /// (`waitUntilReached`), checks what other threads can do meanwhile, then `release`s it. No clock
    /// decides anything.
    package final class Hold: Sendable {
        fileprivate let point: Point
        fileprivate let folder: String
        private let reached = DispatchSemaphore(value: 0)
        private let released = DispatchSemaphore(value: 0)

        fileprivate init(point: Point, folder: String) {
            self.point = point
            self.folder = folder
        }

        /// Whether a thread reached the held call within `seconds` (a deadline for a test that went
        /// wrong, not a measurement).
        package func waitUntilReached(seconds: Double = 60) -> Bool {
            reached.wait(timeout: .now() + seconds) == .success
        }

        /// Lets the held call (and every later one) go on; the hold is removed.
        package func release() {
            FaultInjection.holds.withLock { $0.removeAll { $0 === self } }
            released.signal()
        }

        fileprivate func holdHere() {
            reached.signal()
            released.wait()
            released.signal()  // a second thread at the same point goes on too
        }
    }

    private static let holds = Mutex<[Hold]>([])

    /// Holds the next calls of `point` for paths under `folder` until the returned hold is released.
    package static func hold(_ point: Point, under folder: String) -> Hold {
        let hold = Hold(point: point, folder: folder)
        holds.withLock { $0.append(hold) }
        return hold
    }

    /// Waits here while a test holds `point` for `path`.
    static func waitIfHeld(_ point: Point, path: String) {
        let hold = holds.withLock { list in
            list.first { $0.point == point && (path == $0.folder || path.hasPrefix($0.folder + "/")) }
        }
        hold?.holdHere()
    }

    /// How much longer `point` takes for `path`; nil when no test slowed it.
    static func delay(for point: Point, path: String) -> Int? {
        delays.withLock { list in
            list.first { $0.point == point && (path == $0.folder || path.hasPrefix($0.folder + "/")) }?.milliseconds
        }
    }

    static func failure(for point: Point, path: String) -> Int32? {
        failures.withLock { list in
            list.first { $0.point == point && (path == $0.folder || path.hasPrefix($0.folder + "/")) }?.errno
        }
    }
}
