import Crypto

/// The record moves a store has begun and not yet finished, in a small file outside the backing folder.
///
/// A record whose startTime leaves its month is written to the new month's document first and only then
/// removed from the old one, so a process killed between the two saves leaves it in both documents.
/// The move is written here (and fsynced) before the first save and removed after the second; the
/// next store opened on the same folder finishes what is left (`Store.finishInterruptedMoves()`).
///
/// The file lives in the user's local state folder, never in the backing folder (a sync tool would
/// copy it to other devices): `STATE/moves-HASH.tsv`, HASH naming the backing folder's path. One move
/// a line: `ID<TAB>YYYY/MM<TAB>YYYY/MM` (the record id, the month it leaves, the month it goes to).
struct MoveJournal: Sendable {
    struct Move: Equatable, Sendable {
        var id: String
        var source: Month
        var destination: Month
    }

    /// The journal file.
    let path: String

    /// The journal of the store at `storePath`, in `stateDirectory` (created if missing).
    init(stateDirectory: String, storePath: String) throws(StoreError) {
        try BackingFiles.makeDirectories(stateDirectory)
        let digest = SHA256.hash(data: Array(storePath.utf8))
        let name = digest.prefix(12).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
        path = stateDirectory + "/moves-" + name + ".tsv"
    }

    /// The moves begun and not finished; lines that do not parse are skipped.
    func pending() -> [Move] {
        // No journal (the usual case) or an unreadable one: no move to finish. A record a lost entry
        // leaves in two months is still in both documents, never in neither.
        guard let bytes = try? BackingFiles.read(path, limit: 1 << 20) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, !fields[0].isEmpty,
                  let source = Month(yearSlashMonth: fields[1]), let destination = Month(yearSlashMonth: fields[2]) else { return nil }
            return Move(id: String(fields[0]), source: source, destination: destination)
        }
    }

    /// Records a move about to begin (durably: it is on disk when this returns).
    func begin(_ move: Move) throws(StoreError) {
        try write(pending().filter { $0.id != move.id } + [move])
    }

    /// Forgets a finished move.
    func finish(_ move: Move) throws(StoreError) {
        let remaining = pending().filter { $0 != move }
        if remaining.isEmpty {
            if BackingFiles.status(path) != nil { try BackingFiles.remove(path) }
        } else {
            try write(remaining)
        }
    }

    private func write(_ moves: [Move]) throws(StoreError) {
        let text = moves.map { "\($0.id)\t\($0.source.yearSlashMonth)\t\($0.destination.yearSlashMonth)\n" }.joined()
        try BackingFiles.writeAtomically(Array(text.utf8), to: path, permissions: 0o600)
    }
}
