import FileTreeInterface
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a tree could not be mounted or served.
public enum MountError: Error, Sendable, Equatable {
    case mountPointMissing(String)
    case mountPointNotDirectory(String)
    case mountPointNotEmpty(String)
    /// Something is already mounted there.
    case alreadyMounted(String)
    /// A mount whose server died is still there (`ENOTCONN`): `fusermount3 -u` removes it.
    case staleMount(String)
    case mountPointUnusable(String, errno: Int32)
    /// libfuse refused the options (it printed why on standard error).
    case optionsRejected([String])
    /// libfuse could not mount (no `/dev/fuse`, no permission, `fusermount3` missing; it printed why).
    case mountFailed(String)
    /// `run()` was called twice.
    case alreadyRunning
    case systemCallFailed(String, errno: Int32)
    /// Reading the kernel's requests failed.
    case connectionFailed(errno: Int32)
    /// The journal of deferred work (`MountOptions.journalFolder`) cannot be read.
    case journalUnusable(String)
}

extension MountError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .mountPointMissing(let path): "\(path): no such directory"
        case .mountPointNotDirectory(let path): "\(path): not a directory"
        case .mountPointNotEmpty(let path): "\(path): the mount point is not empty"
        case .alreadyMounted(let path): "\(path): something is already mounted there"
        case .staleMount(let path):
            "\(path): a stale mount is still there (its server is gone); run `fusermount3 -u \(path)` first"
        case .mountPointUnusable(let path, let errno): "\(path): cannot use as a mount point (\(Self.text(errno)))"
        case .optionsRejected(let options): "libfuse refused the mount options \(options.joined(separator: ","))"
        case .mountFailed(let path): "\(path): mounting failed (is /dev/fuse available and fusermount3 installed?)"
        case .alreadyRunning: "this mount is already running"
        case .systemCallFailed(let call, let errno): "\(call) failed (\(Self.text(errno)))"
        case .connectionFailed(let errno): "reading from /dev/fuse failed (\(Self.text(errno)))"
        case .journalUnusable(let reason): "the mount's journal of acknowledged changes cannot be used: \(reason)"
        }
    }

    private static func text(_ errno: Int32) -> String {
        String(cString: strerror(errno))
    }
}

extension EventSignal {
    /// A new signal; its failure said as the mount's.
    static func forMount() throws(MountError) -> EventSignal {
        do { return try EventSignal() } catch { throw .systemCallFailed("eventfd", errno: error.rawValue) }
    }
}
