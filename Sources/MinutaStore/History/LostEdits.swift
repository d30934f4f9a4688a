import AutomergeKit

/// Edits of a record that another device deleted at the same time (SPEC sections 5 and 8): the
/// deletion wins, so what the edit wrote shows in no record file. `minutafs log` marks such an edit
/// "(lost)"; `.minutafs/conflicts` lists it too, so a user who reads only that file learns of it.
///
/// One pass over the document's changes finds, for each root key that holds no record now, the
/// changes that deleted it and the changes that wrote into the record objects stored under it (or into
/// the texts and lists of their fields); an edit neither in a deletion's causal past nor after it is lost.
enum LostEdits {
    /// One line per lost edit of a deleted record of `month`'s `document`, oldest first:
    /// `records/2024/05/ID: deleted on one device while another edited it; …`.
    static func lines(in document: Document, month: Month) throws(AutomergeError) -> [String] {
        let present = Set(document.keys(of: .root))
        let changes = document.changes
        var recordKey: [ObjectID: String] = [:]  // record objects (and objects inside them) to their root key
        var deletions: [String: [Int]] = [:]
        var edits: [String: [(change: Int, fields: Set<String>)]] = [:]
        var fieldOfObject: [ObjectID: String] = [:]
        for (position, change) in changes.enumerated() {
            var edited: [String: Set<String>] = [:]
            for operation in try document.changeOperations(ofChange: change.hash) ?? [] {
                if operation.object == .root {
                    guard let key = operation.key, !present.contains(key) else { continue }
                    if operation.isDeletion {
                        deletions[key, default: []].append(position)
                    } else if operation.createdObject == .map {
                        recordKey[operation.createdObjectID] = key
                    }
                } else if let key = recordKey[operation.object] {
                    let field = fieldOfObject[operation.object] ?? operation.key ?? ""
                    edited[key, default: []].insert(field)
                    if operation.createdObject != nil {
                        recordKey[operation.createdObjectID] = key
                        fieldOfObject[operation.createdObjectID] = field
                    }
                }
            }
            for (key, fields) in edited { edits[key, default: []].append((position, fields)) }
        }
        guard !deletions.isEmpty else { return [] }
        let times = EffectiveTimes(of: document)
        var pasts: [Int: Set<ChangeHash>] = [:]
        func past(_ position: Int) throws(AutomergeError) -> Set<ChangeHash> {
            if let known = pasts[position] { return known }
            let found = try document.causalPast(of: [changes[position].hash])
            pasts[position] = found
            return found
        }
        var lines: [(position: Int, line: String)] = []
        for (key, deleting) in deletions {
            for edit in edits[key] ?? [] {
                var lost = false
                for deletion in deleting where deletion != edit.change {
                    let editPast = try past(edit.change), deletionPast = try past(deletion)
                    if !editPast.contains(changes[deletion].hash) && !deletionPast.contains(changes[edit.change].hash) { lost = true }
                }
                guard lost else { continue }
                let change = changes[edit.change]
                let when = times.milliseconds[edit.change] > 0 ? " at " + ISO8601.string(milliseconds: times.milliseconds[edit.change]) : ""
                let fields = edit.fields.sorted().joined(separator: ", ")
                lines.append((edit.change, "\(month.folderPath)/\(key): deleted on one device while another edited it; the edit of \(fields)"
                    + " by device \(change.actor.hexString.prefix(8))\(when) is lost with the record (`minutafs log STORE \(key)` shows it)\n"))
            }
        }
        return lines.sorted { $0.position < $1.position }.map(\.line)
    }
}
