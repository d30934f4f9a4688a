import AutomergeKit

/// What the mount showed of a record's fields before a merge changed them (SPEC 5b: a save is compared
/// with what the writer could have read).
///
/// A script or an editor reads a record, the sync tool delivers another device's change of one of its
/// fields, the mount merges it, and the writer saves its old content with only another field changed.
/// Compared with the stored record alone, that save would set the merged field back. So every merge
/// notes, per record and field, the value shown before it; for `window` seconds a save that writes one
/// of those values where the merge put another keeps the merged value (``reconcile(_:current:recordID:now:)``).
/// A save that writes a third value really changed the field: its value wins, and the merged value it
/// replaced is reported so `.minutafs/conflicts` can list it.
struct SupersededValues: Sendable {
    /// How long a value a merge replaced is remembered: long enough for a script or an editor session.
    static let window = 30 * 60

    private struct Entry: Sendable {
        /// The value shown before the merge; nil: the field was absent.
        var value: JSONValue?
        var until: Int
    }

    private var entries: [RecordID: [String: [Entry]]] = [:]
    /// Objects (tags) a merge created, until when: a `tags.json` written from a read made before the
    /// merge does not list them, which must not delete them.
    private var created: [RecordID: Int] = [:]

    /// Whether nothing is remembered (then a save needs no comparison).
    var isEmpty: Bool { entries.isEmpty && created.isEmpty }

    /// Whether a merge created the object `id` within the window before `now`.
    func wasCreatedByMerge(_ id: RecordID, now: Int) -> Bool {
        (created[id] ?? Int.min) >= now
    }

    /// The fields of each tag of the tags document as `tags.json` shows them (without `id`).
    static func tagFields(of document: Document) -> [RecordID: [(key: String, value: JSONValue)]] {
        var result: [RecordID: [(key: String, value: JSONValue)]] = [:]
        for tag in TagView.tags(in: document) {
            guard case .object(let members) = TagView.json(tag, in: document) else { continue }
            result[RecordID(tag.id)] = members.filter { $0.key != "id" }
        }
        return result
    }

    /// The fields of each record of a month document as the mount renders them (without `id`).
    static func fields(of document: Document) -> [RecordID: [(key: String, value: JSONValue)]] {
        var result: [RecordID: [(key: String, value: JSONValue)]] = [:]
        for key in document.keys(of: .root) {
            guard let record = RecordView.object(key, in: document),
                  case .object(let members) = RecordView.json(id: key, record: record, in: document) else { continue }
            result[RecordID(key)] = members.filter { $0.key != "id" }
        }
        return result
    }

    /// Notes the fields a merge changed: `before` and `after` are ``fields(of:)`` of the document before
    /// and after it. A record the merge created or removed has nothing a writer could have read stale.
    mutating func noteMerge(before: [RecordID: [(key: String, value: JSONValue)]], after: [RecordID: [(key: String, value: JSONValue)]], now: Int) {
        forgetExpired(now: now)
        for id in after.keys where before[id] == nil {
            created[id] = now + Self.window
        }
        for (id, old) in before {
            guard let new = after[id] else { continue }
            let keys = Set(old.map(\.key)).union(new.map(\.key))
            for key in keys {
                let oldValue = old.first { $0.key == key }?.value
                let newValue = new.first { $0.key == key }?.value
                guard oldValue != newValue else { continue }
                entries[id, default: [:]][key, default: []].append(Entry(value: oldValue, until: now + Self.window))
            }
        }
    }

    /// A field a save changed where a merge had changed it too.
    struct Overwrite: Equatable, Sendable {
        var field: String
        /// The merged value the save replaced (nil: the merge had removed the field).
        var merged: JSONValue?
        /// The value the save wrote (nil: removed).
        var written: JSONValue?
    }

    /// The fields a writer saves for record `id`, with every field that still holds a value the mount
    /// showed before a merge changed it set back to the merged value (`current`); and the fields the writer
    /// changed to a third value where a merge had changed them (its value wins; the merged one is reported).
    func reconcile(
        _ written: [(key: String, value: JSONValue)], current: [(key: String, value: JSONValue)], recordID id: RecordID, now: Int
    ) -> (fields: [(key: String, value: JSONValue)], overwrites: [Overwrite]) {
        guard let fields = entries[id] else { return (written, []) }
        var result = written
        var overwrites: [Overwrite] = []
        for (key, superseded) in fields {
            let live = superseded.filter { $0.until >= now }
            guard !live.isEmpty else { continue }
            let writtenValue = written.first { $0.key == key }?.value
            let currentValue = current.first { $0.key == key }?.value
            guard writtenValue != currentValue else { continue }
            if live.contains(where: { $0.value == writtenValue }) {
                // A stale read: what the writer saved is what the mount showed before the merge.
                if let index = result.firstIndex(where: { $0.key == key }) {
                    if let currentValue { result[index].value = currentValue } else { result.remove(at: index) }
                } else if let currentValue {
                    result.append((key, currentValue))
                }
            } else {
                overwrites.append(Overwrite(field: key, merged: currentValue, written: writtenValue))
            }
        }
        return (result, overwrites)
    }

    private mutating func forgetExpired(now: Int) {
        created = created.filter { $0.value >= now }
        for (id, fields) in entries {
            let kept = fields.compactMapValues { list -> [Entry]? in
                let live = list.filter { $0.until >= now }
                return live.isEmpty ? nil : live
            }
            entries[id] = kept.isEmpty ? nil : kept
        }
    }
}
