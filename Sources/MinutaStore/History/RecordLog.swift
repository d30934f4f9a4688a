import AutomergeKit

/// `minutafs log` (SPEC section 8): every change that touched one record, oldest first, with the
/// fields it set or removed, their values before and after as the record file shows them.
public struct RecordLog: Sendable {
    /// One change that touched the record.
    public struct Entry: Sendable {
        /// Effective time in milliseconds (see ``EffectiveTimes``); 0 when no change up to it had a time.
        public var milliseconds: Int64
        public var actor: ActorID
        public var change: ChangeHash
        /// The document holding the change (`records/2024/03.automerge`).
        public var document: String
        /// What the change did to the record as a whole.
        public var kind: Kind
        /// The fields it set or removed, in the order the record file shows them: old value (as the
        /// change's device saw the record) and new value as the file shows them, nil when absent;
        /// `lost` when a concurrent change's value is the one the store kept (see ``lostFields``).
        public var fields: [(name: String, old: JSONValue?, new: JSONValue?, lost: Bool)]
        /// Other changes touching the record that neither precede nor follow this one.
        public var concurrentWith: [ChangeHash]

        /// The first 8 hex digits of the actor: the device (one per app install or mount).
        public var device: String { String(actor.hexString.prefix(8)) }
    }

    public enum Kind: String, Sendable {
        case created, edited, deleted
    }

    public let id: String
    public let entries: [Entry]

    /// The record's history across every month document of the store (a record that moved has some
    /// in each). Throws when a document cannot be read; nil entries when no document ever held it.
    public init(recordID id: String, in store: Store) throws(StoreError) {
        self.id = id
        var entries: [Entry] = []
        for month in try store.months() {
            guard let document = try store.document(of: month) else { continue }
            entries += try Self.entries(of: id, in: document, path: month.documentPath)
        }
        // Oldest first; one document's changes keep their causal order.
        self.entries = entries.enumerated().sorted { left, right in
            left.element.milliseconds != right.element.milliseconds
                ? left.element.milliseconds < right.element.milliseconds : left.offset < right.offset
        }.map(\.element)
    }

    /// The changes of one document that set or removed a field of the record, in the document's
    /// order. Each is compared with the record as its own device saw it (the state at the change's
    /// dependencies, then at the change), not with whatever came before it in the file: a value that
    /// lost a conflict with a concurrent change still shows, marked lost, and a change's old value is
    /// the one its device replaced.
    static func entries(of id: String, in document: Document, path: String) throws(StoreError) -> [Entry] {
        func failed(_ operation: String, _ error: AutomergeError) -> StoreError {
            .documentOperationFailed(file: path, operation: operation, cause: error)
        }
        let key = storedKey(of: id, in: document)
        let changes = document.changes
        let writes: [[RecordWrite]]
        do { writes = try recordWrites(of: key, in: document, changes: changes) } catch { throw failed("reading its changes", error) }
        let candidates = changes.indices.filter { !writes[$0].isEmpty }
        guard !candidates.isEmpty else { return [] }

        // Each candidate's causal past, and the record before and after it as its device saw it.
        var pasts: [Int: Set<ChangeHash>] = [:]
        do {
            for position in candidates { pasts[position] = try document.causalPast(of: [changes[position].hash]) }
        } catch { throw failed("reading its history", error) }
        // One replay in the file's order gives the record at every position; a change whose past is
        // everything before it (no concurrency) reads its states there, the others build theirs.
        let wanted = Set(candidates)
        var replayed: [Int: RecordFields?] = [:]
        var position = 0
        do {
            try document.replay { _, state in
                defer { position += 1 }
                if wanted.contains(position) || wanted.contains(position + 1) { replayed[position] = view(of: key, in: state) }
            }
        } catch { throw failed("replaying its history", error) }
        var views: [Int: (before: RecordFields?, after: RecordFields?)] = [:]
        for position in candidates {
            let past = pasts[position] ?? []
            var dependencies = past
            dependencies.remove(changes[position].hash)
            do {
                let after: RecordFields? = if past.count == position + 1, let state = replayed[position] {
                    state
                } else {
                    view(of: key, in: try document.state(including: past))
                }
                let before: RecordFields? = if dependencies.isEmpty {
                    nil
                } else if dependencies.count == position, let state = replayed[position - 1] {
                    state
                } else {
                    view(of: key, in: try document.state(including: dependencies))
                }
                views[position] = (before, after)
            } catch { throw failed("reading its history", error) }
        }

        let times = EffectiveTimes(of: document)
        func concurrent(_ left: Int, _ right: Int) -> Bool {
            !(pasts[left]?.contains(changes[right].hash) ?? false) && !(pasts[right]?.contains(changes[left].hash) ?? false)
        }
        var result: [Entry] = []
        var positions: [Int] = []
        for position in candidates {
            guard let (before, after) = views[position] else { continue }
            let fields = differences(before, after)
            let kind: Kind? = switch (before, after) {
            case (nil, nil): nil
            case (nil, _?): .created
            case (_?, nil): .deleted
            case (_?, _?): fields.isEmpty ? nil : .edited
            }
            guard let kind else { continue }
            let rivals = candidates.filter { $0 != position && concurrent(position, $0) }
            let lost = lostFields(of: writes[position], against: rivals.map { writes[$0] })
            let change = changes[position]
            result.append(Entry(
                milliseconds: times.milliseconds[position], actor: change.actor, change: change.hash, document: path, kind: kind,
                fields: fields.map { field -> (name: String, old: JSONValue?, new: JSONValue?, lost: Bool) in
                    (field.name, field.old, field.new, lost.all || lost.fields.contains(field.name))
                },
                concurrentWith: []))
            positions.append(position)
        }
        // Concurrent: neither is in the other's causal past.
        for index in result.indices {
            for other in result.indices where other != index && concurrent(positions[index], positions[other]) {
                result[index].concurrentWith.append(result[other].change)
            }
        }
        return result
    }

    typealias RecordFields = [(key: String, value: JSONValue)]

    /// One operation of a change on the record: on the root key that holds it (`field` nil), on one
    /// of its fields (`isDirect`), or inside the object a field holds (a text comment, the images list).
    struct RecordWrite {
        var field: String?
        var isDirect: Bool
        var operation: ChangeOperation
        /// The record object written into (nil for a write of the root key).
        var record: ObjectID?
    }

    /// For each change (the document's order), its operations on the record stored under `key`: the
    /// record objects ever stored there and the objects their fields held are followed as they are made.
    static func recordWrites(of key: String, in document: Document, changes: [ChangeInfo]) throws(AutomergeError) -> [[RecordWrite]] {
        var records = Set<ObjectID>()
        var fieldOfObject: [ObjectID: (field: String, record: ObjectID)] = [:]
        var result: [[RecordWrite]] = []
        result.reserveCapacity(changes.count)
        for change in changes {
            var writes: [RecordWrite] = []
            for operation in try document.changeOperations(ofChange: change.hash) ?? [] {
                if operation.object == .root {
                    guard operation.key == key else { continue }
                    writes.append(RecordWrite(field: nil, isDirect: true, operation: operation, record: nil))
                    if operation.createdObject == .map { records.insert(operation.createdObjectID) }
                } else if records.contains(operation.object) {
                    guard let field = operation.key else { continue }
                    writes.append(RecordWrite(field: field, isDirect: true, operation: operation, record: operation.object))
                    if operation.createdObject != nil { fieldOfObject[operation.createdObjectID] = (field, operation.object) }
                } else if let owner = fieldOfObject[operation.object] {
                    writes.append(RecordWrite(field: owner.field, isDirect: false, operation: operation, record: owner.record))
                    if operation.createdObject != nil { fieldOfObject[operation.createdObjectID] = owner }
                }
            }
            result.append(writes)
        }
        return result
    }

    /// Which of a change's writes to the record lost to a change that did not see it (SPEC section
    /// 8: concurrent values are kept, the greater operation id is shown). A value set on a key loses
    /// to a concurrent value set on the same key with a greater id; a removal loses to any concurrent
    /// value; anything written inside a field's text or list is lost when a concurrent change set or
    /// removed that field, and anything written inside the record when a concurrent change removed or
    /// replaced the record. Concurrent edits of one text or list merge, and are not lost. `all` when
    /// the change's write of the record itself lost.
    static func lostFields(of writes: [RecordWrite], against rivals: [[RecordWrite]]) -> (all: Bool, fields: Set<String>) {
        var all = false
        var fields = Set<String>()
        let theirs = rivals.joined().filter(\.isDirect)
        for write in writes {
            let beaten = theirs.contains { rival in
                if write.isDirect && rival.operation.object == write.operation.object && rival.operation.key == write.operation.key {
                    return !rival.operation.isDeletion && (write.operation.isDeletion || write.operation.id < rival.operation.id)
                }
                if !write.isDirect && rival.field != nil && rival.field == write.field && rival.record == write.record { return true }
                guard rival.field == nil, let creation = write.record?.creatingOperation else { return false }
                return rival.operation.predecessors.contains(creation)
            }
            guard beaten else { continue }
            if let field = write.field { fields.insert(field) } else { all = true }
        }
        return (all, fields)
    }

    /// The key the document stores the record under: `id` as written, else in another case.
    private static func storedKey(of id: String, in document: Document) -> String {
        if document.value(of: .root, key: id) != nil { return id }
        if let key = RecordID(id).key(among: document.keys(of: .root)) { return key }
        // Deleted since: the case the app and the mount write.
        return UUIDText.isValid(id) ? RecordID(id).text : id
    }

    /// The record's fields as its file shows them (without `id`), nil when the document does not hold it.
    private static func view(of key: String, in document: Document) -> RecordFields? {
        guard let object = RecordView.object(key, in: document),
              case .object(let members) = RecordView.json(id: key, record: object, in: document) else { return nil }
        return members.filter { $0.key != "id" }
    }

    private static func differences(_ old: RecordFields?, _ new: RecordFields?) -> [(name: String, old: JSONValue?, new: JSONValue?)] {
        var result: [(name: String, old: JSONValue?, new: JSONValue?)] = []
        let oldFields = old ?? [], newFields = new ?? []
        for field in newFields {
            let before = oldFields.first { $0.key == field.key }?.value
            if before != field.value { result.append((field.key, before, field.value)) }
        }
        for field in oldFields where !newFields.contains(where: { $0.key == field.key }) {
            result.append((field.key, field.value, nil))
        }
        return result
    }

    // MARK: Output

    /// One line per entry: `2024-03-12T09:30:00Z 1a2b3c4d edited comment: "a" -> "b"; images: [] -> ["x.jpg"]`,
    /// with `(concurrent with 5f3e91a0)` when a change that did not see it (nor it that one) touched
    /// the record too, and `(lost)` after a value the store did not keep because a concurrent value won.
    public func lines() -> [String] {
        entries.map { entry in
            var line = (entry.milliseconds > 0 ? ISO8601.string(milliseconds: entry.milliseconds) : "(no time)") + " " + entry.device + " " + entry.kind.rawValue
            if !entry.concurrentWith.isEmpty {
                line += " (concurrent with " + entry.concurrentWith.map { String($0.hexString.prefix(8)) }.joined(separator: ", ") + ")"
            }
            let fields = entry.fields.map { field in
                "\(field.name): \(Self.compact(field.old)) -> \(Self.compact(field.new))" + (field.lost ? " (lost)" : "")
            }
            if !fields.isEmpty { line += " " + fields.joined(separator: "; ") }
            return line
        }
    }

    /// One JSON object per entry.
    public func jsonLines() -> [String] {
        entries.map { entry in
            let fields: [JSONValue] = entry.fields.map { field in
                .object([("field", .string(field.name)), ("old", field.old ?? .null), ("new", field.new ?? .null),
                         ("removed", .bool(field.new == nil)), ("lost", .bool(field.lost))])
            }
            let object: JSONValue = .object([
                ("time", entry.milliseconds > 0 ? .string(ISO8601.string(milliseconds: entry.milliseconds)) : .null),
                ("milliseconds", .integer(entry.milliseconds)),
                ("device", .string(entry.device)),
                ("actor", .string(entry.actor.hexString)),
                ("change", .string(entry.change.hexString)),
                ("document", .string(entry.document)),
                ("record", .string(id)),
                ("kind", .string(entry.kind.rawValue)),
                ("concurrent", .bool(!entry.concurrentWith.isEmpty)),
                ("concurrentWith", .array(entry.concurrentWith.map { .string($0.hexString) })),
                ("fields", .array(fields)),
            ])
            return Self.compact(object)
        }
    }

    static func compact(_ value: JSONValue?) -> String {
        guard let value else { return "(none)" }
        return compact(value)
    }

    /// `value` on one line (the record file's layout without its line breaks and indentation).
    static func compact(_ value: JSONValue) -> String {
        switch value {
        case .array(let elements): return "[" + elements.map { compact($0) }.joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { member in
                var key: [UInt8] = []
                JSONWriter.writeString(member.key, to: &key)
                return String(decoding: key, as: UTF8.self) + ":" + compact(member.value)
            }.joined(separator: ",") + "}"
        default:
            var bytes = JSONWriter.pretty(value)
            if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
