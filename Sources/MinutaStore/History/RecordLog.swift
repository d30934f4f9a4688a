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
        /// The fields it changed, in the order the record file shows them: old and new value as the
        /// file shows them, nil when absent.
        public var fields: [(name: String, old: JSONValue?, new: JSONValue?)]
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

    /// The changes of one document that touched the record.
    static func entries(of id: String, in document: Document, path: String) throws(StoreError) -> [Entry] {
        let key = storedKey(of: id, in: document)
        let times = EffectiveTimes(of: document)
        var previous: [(key: String, value: JSONValue)]?
        var result: [Entry] = []
        var position = 0
        do {
            try document.replay { change, state in
                defer { position += 1 }
                let now = view(of: key, in: state)
                let fields = differences(previous, now)
                let kind: Kind? = switch (previous, now) {
                case (nil, nil): nil
                case (nil, _?): .created
                case (_?, nil): .deleted
                case (_?, _?): fields.isEmpty ? nil : .edited
                }
                previous = now
                guard let kind else { return }
                result.append(Entry(milliseconds: times.milliseconds[position], actor: change.actor, change: change.hash,
                                    document: path, kind: kind, fields: fields, concurrentWith: []))
            }
        } catch {
            throw .documentOperationFailed(file: path, operation: "replaying its history", cause: error)
        }
        // Concurrent: neither is in the other's causal past.
        var pasts: [Set<ChangeHash>] = []
        for entry in result { pasts.append((try? document.causalPast(of: [entry.change])) ?? []) }
        for index in result.indices {
            for other in result.indices where other != index {
                if !pasts[index].contains(result[other].change) && !pasts[other].contains(result[index].change) {
                    result[index].concurrentWith.append(result[other].change)
                }
            }
        }
        return result
    }

    /// The key the document stores the record under: `id` as written, else in another case.
    private static func storedKey(of id: String, in document: Document) -> String {
        if document.value(of: .root, key: id) != nil { return id }
        if let key = RecordID(id).key(among: document.keys(of: .root)) { return key }
        // Deleted since: the case the app and the mount write.
        return UUIDText.isValid(id) ? RecordID(id).text : id
    }

    /// The record's fields as its file shows them (without `id`), nil when the document does not hold it.
    private static func view(of key: String, in document: Document) -> [(key: String, value: JSONValue)]? {
        guard let object = RecordView.object(key, in: document),
              case .object(let members) = RecordView.json(id: key, record: object, in: document) else { return nil }
        return members.filter { $0.key != "id" }
    }

    private static func differences(_ old: [(key: String, value: JSONValue)]?, _ new: [(key: String, value: JSONValue)]?) -> [(name: String, old: JSONValue?, new: JSONValue?)] {
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
    /// with `(concurrent with 5f3e91a0)` when another change touched the record at the same time.
    public func lines() -> [String] {
        entries.map { entry in
            var line = (entry.milliseconds > 0 ? ISO8601.string(milliseconds: entry.milliseconds) : "(no time)") + " " + entry.device + " " + entry.kind.rawValue
            if !entry.concurrentWith.isEmpty {
                line += " (concurrent with " + entry.concurrentWith.map { String($0.hexString.prefix(8)) }.joined(separator: ", ") + ")"
            }
            let fields = entry.fields.map { field in
                "\(field.name): \(Self.compact(field.old)) -> \(Self.compact(field.new))"
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
                         ("removed", .bool(field.new == nil))])
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
