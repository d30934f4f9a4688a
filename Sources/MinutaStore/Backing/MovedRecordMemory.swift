import AutomergeKit

/// The records this store moved between month documents, kept on disk beside the move journal
/// (`$XDG_STATE_HOME/minutafs/moved-HASH.json`, never in the synced folder) so that another device's
/// edit to a record's old place still reaches its new place when it arrives after a remount
/// (`Writing/RecordMoves.swift`).
///
/// The newest `limit` moves are kept: another device's edit made before it saw a move arrives within
/// days or weeks of it, not after a thousand later moves. A file that does not parse is ignored (the
/// edits it would have carried are still in the old month's document, in its history).
struct MovedRecordMemory: Sendable {
    let path: String
    static let limit = 1000

    /// The memory of the store at `storePath`, in `stateDirectory` (created if missing).
    init(stateDirectory: String, storePath: String) throws(StoreError) {
        try BackingFiles.makeDirectories(stateDirectory)
        path = stateDirectory + "/moved-" + StoreLock.key(for: storePath) + ".json"
    }

    /// The moves remembered, by upper-case record id.
    func load() -> [RecordID: MovedAway] {
        guard let bytes = try? BackingFiles.read(path, limit: 64 << 20), let json = try? JSONParser.parse(bytes),
              case .array(let entries)? = json["moves"] else { return [:] }
        var moves: [RecordID: MovedAway] = [:]
        for entry in entries {
            guard case .string(let id)? = entry["id"], let moved = Self.move(from: entry) else { continue }
            moves[RecordID(id)] = moved
        }
        return moves
    }

    /// Writes `moves` (the newest `limit` of them) atomically; returns what was kept.
    func save(_ moves: [RecordID: MovedAway]) throws(StoreError) -> [RecordID: MovedAway] {
        let kept = moves.sorted { ($0.value.movedAt, $0.key) > ($1.value.movedAt, $1.key) }.prefix(Self.limit)
        let entries: [JSONValue] = kept.sorted { $0.key < $1.key }.map { id, moved in
            .object([
                (key: "id", value: .string(id.text)),
                (key: "source", value: .string(moved.source.yearSlashMonth)),
                (key: "object", value: .string(moved.object.description)),
                (key: "destination", value: .string(moved.destination.yearSlashMonth)),
                (key: "movedAt", value: .integer(Int64(moved.movedAt))),
                (key: "fieldsAtMove", value: .object(moved.fieldsAtMove)),
                (key: "fieldsWritten", value: .object(moved.fieldsWritten)),
            ])
        }
        try BackingFiles.writeAtomically(JSONWriter.pretty(.object([(key: "version", value: .integer(1)), (key: "moves", value: .array(entries))])),
                                       to: path, permissions: 0o600)
        return Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }

    private static func move(from entry: JSONValue) -> MovedAway? {
        guard case .string(let source)? = entry["source"], let sourceMonth = Month(yearSlashMonth: source),
              case .string(let destination)? = entry["destination"], let destinationMonth = Month(yearSlashMonth: destination),
              case .string(let objectText)? = entry["object"], let object = ObjectID(parsing: objectText),
              case .integer(let movedAt)? = entry["movedAt"],
              case .object(let atMove)? = entry["fieldsAtMove"], case .object(let written)? = entry["fieldsWritten"]
        else { return nil }
        return MovedAway(source: sourceMonth, object: object, destination: destinationMonth,
                               fieldsAtMove: atMove, fieldsWritten: written, movedAt: Int(movedAt))
    }
}
