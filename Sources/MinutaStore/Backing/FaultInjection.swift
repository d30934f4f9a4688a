import Synchronization

/// System-call failures a test makes the store see, to prove each is handled (a folder whose fsync
/// fails, a file system that cannot exchange files). Each applies to paths under one folder, so tests
/// running at the same time do not see each other's. Empty outside tests.
package enum FaultInjection {
    package enum Point: Hashable, Sendable {
        /// `fsync` of a folder after a rename or unlink (``BackingFiles/syncDirectory(_:)``).
        case fsyncDirectory
        /// `renameat2(RENAME_EXCHANGE)` is reported unsupported, so the rename fallback runs.
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
