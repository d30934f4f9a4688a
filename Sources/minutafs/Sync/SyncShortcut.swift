import Crypto
import MinutaStore

/// What one side said the last time a document was in sync with a peer, kept beside the document's
/// sync state (in the state folder) so that a document unchanged since is answered without being
/// loaded: the sync messages are a function of the document, the state and the message received,
/// so the same file (device, inode, size and modification time), the same state and the same
/// message received give the same answer. The file holds the SHA-256 of those inputs and the answer.
/// A lost or damaged file only costs a load; it is written without fsync.
struct SyncShortcut {
    /// The file, in the state folder.
    let file: String

    /// The key of an exchange: the document file's identity, the state's persistent form and the
    /// message received (empty for the first message the driving side sends).
    static func key(identity: BackingFiles.Identity, state: [UInt8], incoming: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        let file = "minutafs sync shortcut 1 \(identity.device) \(identity.inode) \(identity.size) \(identity.modificationSeconds) \(identity.modificationNanoseconds)"
        hasher.update(data: Array(file.utf8) + [0] + Array(String(state.count).utf8) + [0] + state)
        hasher.update(data: incoming)
        return Array(hasher.finalize())
    }

    /// The answer kept for `key` (possibly empty: nothing to send), nil when none is.
    func answer(for key: [UInt8]) -> [UInt8]? {
        guard let bytes = try? BackingFiles.read(file, limit: 64 << 20), bytes.count >= key.count, Array(bytes.prefix(key.count)) == key else { return nil }
        return Array(bytes.dropFirst(key.count))
    }

    /// Keeps `answer` as what is said for `key`.
    func record(_ answer: [UInt8], for key: [UInt8]) {
        if let kept = try? BackingFiles.read(file, limit: 64 << 20), kept == key + answer { return }
        try? BackingFiles.makeDirectories(BackingFiles.parentPath(file))
        try? BackingFiles.writeWithoutSync(key + answer, to: file)
    }
}
