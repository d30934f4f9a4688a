import AutomergeKit
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Why a document file in the store does not load (SPEC 5a). Such a file may hold another device's
/// only copy of its changes, so the store never writes over, renames or deletes it.
public enum UnreadableReason: Sendable, Equatable, CustomStringConvertible {
    /// Zero bytes: most often a sync tool that has created the file and not yet written it.
    case empty
    /// A folder, a FIFO or a device where a document belongs.
    case notARegularFile
    /// A symbolic link where a document belongs: never followed, never replaced.
    case symbolicLink
    /// `open` or `read` failed (permissions, I/O): the C error code.
    case cannotRead(errno: Errno)
    /// The bytes are not a document automerge 0.6 can load.
    case format(AutomergeError)

    /// Whether the file looks like one a newer Automerge wrote (a chunk type 0.6 does not know).
    public var isNewerFormat: Bool {
        if case .format(let error) = self, error.kind == .unknownChunkType { return true }
        return false
    }

    public var description: String {
        switch self {
        case .empty:
            return "the file is empty (a sync tool may still be downloading it)"
        case .notARegularFile:
            return "it is not a regular file (a folder, FIFO, socket or device is where the document belongs); move it away to use this month again"
        case .symbolicLink:
            return "it is a symbolic link, which minutafs never follows or replaces; put the document itself there to use this month again"
        case .cannotRead(let code):
            return "it cannot be read (\(String(cString: strerror(code.rawValue))))"
        case .format(let error) where error.kind == .unsavableValue:
            return "it loads, but holds a change this minutafs could not save in the document (\(error)); a broken device's clock may have written it"
        case .format(let error) where isNewerFormat:
            return "it was written in a newer Automerge format than this minutafs understands (\(error)); a newer minutafs may read it"
        case .format(let error):
            return "it is not a document this minutafs can load (\(error)); a sync tool may still be writing it, or it is damaged"
        }
    }
}

extension Document {
    /// The reason a freshly loaded document cannot be used as the file's whole content: changes
    /// whose dependencies it lacks wait unapplied, and saving it would drop them.
    package var unappliedChangesReason: UnreadableReason? {
        hasPendingChanges ? .format(AutomergeError(.missingDependency, "it holds changes whose dependencies are missing")) : nil
    }
}
