import Dispatch
import Synchronization
import SystemPackage

/// System-call failures a test makes one store see, to prove each is handled (a folder whose fsync
/// fails, a file system that cannot exchange files, a disk slow or held at one call). A store gets one
/// as a dependency (`Store(folder:…, faults:)`, kept by its `BackingFolder` and passed to the system-call
/// wrappers its documents are written through); without one, nothing is checked. Each failure, delay
/// or hold applies to the paths under a folder (the store's whole folder unless told), so a test can
/// aim at one document.
package final class FaultInjection: Sendable {
    package enum Point: Hashable, Sendable {
        /// `fsync` of a folder after a rename or unlink (``BackingFiles/syncDirectory(_:faults:)``).
        case fsyncDirectory
        /// `renameat2(RENAME_EXCHANGE)` of a document over its file: reported unsupported (`inject`), so the
        /// rename fallback runs, or held (`hold`, under the document's path) just before it is made.
        case exchange
    }

    private let failures = Mutex<[(point: Point, folder: String, errno: Int32)]>([])
    private let delays = Mutex<[(point: Point, folder: String, milliseconds: Int)]>([])
    private let holds = Mutex<[Hold]>([])

    package init() {}

    /// Makes `point` fail with `code` (an errno value) for paths under `folder` until ``clear(_:under:)``.
    package func inject(_ point: Point, errno code: Int32, under folder: FilePath) {
        failures.withLock { $0.append((point, folder.string, code)) }
    }

    package func clear(_ point: Point, under folder: FilePath) {
        failures.withLock { $0.removeAll { $0.point == point && $0.folder == folder.string } }
    }

    /// Makes `point` take `milliseconds` longer (a slow disk) for paths under `folder` until
    /// ``clearDelay(_:under:)``.
    package func delay(_ point: Point, milliseconds: Int, under folder: FilePath) {
        delays.withLock { $0.append((point, folder.string, milliseconds)) }
    }

    package func clearDelay(_ point: Point, under folder: FilePath) {
        delays.withLock { $0.removeAll { $0.point == point && $0.folder == folder.string } }
    }

    /// A system call a test holds until it lets it go: the test learns when a thread is inside it
    /// (`waitUntilReached`), checks what other threads can do meanwhile, then `release`s it. No clock
    /// decides anything.
    package final class Hold: Sendable {
        fileprivate let point: Point
        fileprivate let folder: String
        private let owner: FaultInjection
        private let reached = DispatchSemaphore(value: 0)
        private let released = DispatchSemaphore(value: 0)

        fileprivate init(point: Point, folder: String, owner: FaultInjection) {
            self.point = point
            self.folder = folder
            self.owner = owner
        }

        /// Whether a thread reached the held call within `seconds` (a deadline for a test that went
        /// wrong, not a measurement).
        package func waitUntilReached(seconds: Double = 60) -> Bool {
            reached.wait(timeout: .now() + seconds) == .success
        }

        /// Lets the held call (and every later one) go on; the hold is removed.
        package func release() {
            owner.holds.withLock { $0.removeAll { $0 === self } }
            released.signal()
        }

        fileprivate func holdHere() {
            reached.signal()
            released.wait()
            released.signal()  // a second thread at the same point goes on too
        }
    }

    /// Holds the next calls of `point` for paths under `folder` until the returned hold is released.
    package func hold(_ point: Point, under folder: FilePath) -> Hold {
        let hold = Hold(point: point, folder: folder.string, owner: self)
        holds.withLock { $0.append(hold) }
        return hold
    }

    /// Waits here while a test holds `point` for `path`.
    func waitIfHeld(_ point: Point, path: String) {
        let hold = holds.withLock { list in list.first { $0.point == point && Self.isUnder(path, $0.folder) } }
        hold?.holdHere()
    }

    /// How much longer `point` takes for `path`; nil when no test slowed it.
    func delay(for point: Point, path: String) -> Int? {
        delays.withLock { list in list.first { $0.point == point && Self.isUnder(path, $0.folder) }?.milliseconds }
    }

    func failure(for point: Point, path: String) -> Int32? {
        failures.withLock { list in list.first { $0.point == point && Self.isUnder(path, $0.folder) }?.errno }
    }

    private static func isUnder(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder + "/")
    }
}
