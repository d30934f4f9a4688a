import AutomergeKit

/// What merges changed in record and tag fields, and when each change was shown (SPEC 5b: a save is
/// compared with what its writer read).
///
/// A script reads a record, the sync tool delivers another device's change of one of its fields, the
/// mount merges it, and the script saves its old content with only another field changed. Compared
/// with the stored record alone, that save would set the merged field back. So every merge notes, per
/// record and field, the value shown before it and the value it put there; once the mount shows the
/// merged state (the kernel's caches of it dropped), the merge is *published* (``publish(at:)``). A save
/// is then judged by when its writer read the record (``WriterRead``), not by its values alone
/// (``reconcile(_:current:recordID:reading:now:)``):
/// - read before the merge was published: a field saved with the value it read keeps the merged value
///   (the stale script), and is reported as not applied; a field it changed to a third value takes its
///   value, and the merged value it replaced is reported;
/// - read after: applied as written (a person who sets the old value back means it);
/// - unknown: applied as written, and the merged value it replaced is reported;
/// - a restore: applied as written.
struct SupersededValues: Sendable {
    /// How long a merge's changes are remembered (seconds): how stale a read may be and still be told
    /// from a deliberate save. Memory stays bounded by the merges of that time.
    static let memory = 6 * 60 * 60

    /// One merge's change of one field.
    private struct Change: Sendable {
        /// The value shown before the merge; nil: the field was absent.
        var before: JSONValue?
        /// The value the merge put there; nil: it removed the field.
        var merged: JSONValue?
        /// The first 8 hex digits of the actor whose value the merge shows, when known.
        var device: String?
        /// When the mount showed the merged value; nil: not yet (every read is from before it).
        var published: ContinuousClock.Instant?
        var until: Int
    }

    /// An object (a tag) a merge created.
    private struct Creation: Sendable {
        var device: String?
        var published: ContinuousClock.Instant?
        var until: Int
    }

    private var entries: [RecordID: [String: [Change]]] = [:]
    private var created: [RecordID: Creation] = [:]

    /// Whether nothing is remembered (then a save needs no comparison).
    var isEmpty: Bool { entries.isEmpty && created.isEmpty }

    /// What a save may do with a tag a merge created that its written list leaves out.
    enum Omission: Equatable, Sendable {
        /// No merge created it (or long ago): the save deletes it.
        case delete
        /// The writer read the list before the merge brought the tag in: kept (not applied).
        case keep(device: String?)
        /// A merge created it, and the writer's reads are unknown: deleted as written, and reported.
        case deleteReported(device: String?)
    }

    /// What a save that leaves out object `id` does with it, given what the writer read.
    func omission(of id: RecordID, reading: WriterRead, now: Int) -> Omission {
        guard let creation = created[id], creation.until >= now else { return .delete }
        switch reading {
        case .restoring: return .delete
        case .unknown: return .deleteReported(device: creation.device)
        case .at(let instant): return creation.published.map { $0 > instant } ?? true ? .keep(device: creation.device) : .delete
        }
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

    /// One change a merge made: a field's value (or, with `field` nil, a new object).
    struct MergeChange: Sendable {
        var id: RecordID
        var field: String?
        var before: JSONValue?
        var merged: JSONValue?
        /// Whose value the merge shows (the first 8 hex digits of its actor), when known.
        var device: String?
    }

    /// What a merge changed: `before` and `after` are ``fields(of:)`` of the document before and after
    /// it. A record the merge created or removed has no field a writer could have read stale; one it
    /// created is noted as a new object. Computed without the lock; `device` is filled in by the caller.
    static func changes(
        before: [RecordID: [(key: String, value: JSONValue)]], after: [RecordID: [(key: String, value: JSONValue)]]
    ) -> [MergeChange] {
        var changes: [MergeChange] = []
        for id in after.keys where before[id] == nil {
            changes.append(MergeChange(id: id, field: nil, before: nil, merged: nil, device: nil))
        }
        for (id, old) in before {
            guard let new = after[id] else { continue }
            let keys = Set(old.map(\.key)).union(new.map(\.key))
            for key in keys.sorted() {
                let oldValue = old.first { $0.key == key }?.value
                let newValue = new.first { $0.key == key }?.value
                guard oldValue != newValue else { continue }
                changes.append(MergeChange(id: id, field: key, before: oldValue, merged: newValue, device: nil))
            }
        }
        return changes
    }

    /// Notes a merge's changes (``changes(before:after:)``); they count as unseen until ``publish(at:)``.
    mutating func noteMerge(_ changes: [MergeChange], now: Int) {
        forgetExpired(now: now)
        let until = now + Self.memory
        for change in changes {
            guard let field = change.field else {
                created[change.id] = Creation(device: change.device, published: nil, until: until)
                continue
            }
            entries[change.id, default: [:]][field, default: []].append(
                Change(before: change.before, merged: change.merged, device: change.device, published: nil, until: until))
        }
    }

    /// The merges noted so far are shown by the mount from `instant` on: a writer that read after it
    /// could have seen them.
    mutating func publish(at instant: ContinuousClock.Instant) {
        for (id, fields) in entries {
            for (key, changes) in fields where changes.contains(where: { $0.published == nil }) {
                entries[id]?[key] = changes.map { change in
                    var change = change
                    if change.published == nil { change.published = instant }
                    return change
                }
            }
        }
        for (id, creation) in created where creation.published == nil {
            created[id]?.published = instant
        }
    }

    /// What became of a saved field where a merge had changed it.
    struct Outcome: Equatable, Sendable {
        enum Kind: Equatable, Sendable {
            /// The writer read before the merge and saved the value it read: the merged value was kept.
            case kept
            /// The writer read before the merge and saved a third value: its value replaced the merged one.
            case replacedConcurrently
            /// Nothing is known of what the writer read: its value replaced the merged one.
            case replacedUnknowingly
        }
        var kind: Kind
        var field: String
        /// The merged value (nil: the merge had removed the field).
        var merged: JSONValue?
        /// The value the save wrote (nil: removed).
        var written: JSONValue?
        var device: String?
    }

    /// The fields a writer saves for record `id`, as they are applied given what it read (`reading`):
    /// fields it saved as it read them before an unseen merge are set back to the merged value
    /// (`current`); and what became of every field the save changed where a merge had changed it.
    func reconcile(
        _ written: [(key: String, value: JSONValue)], current: [(key: String, value: JSONValue)], recordID id: RecordID,
        reading: WriterRead, now: Int
    ) -> (fields: [(key: String, value: JSONValue)], outcomes: [Outcome]) {
        guard let fields = entries[id], reading != .restoring else { return (written, []) }
        var result = written
        var outcomes: [Outcome] = []
        for (key, changes) in fields.sorted(by: { $0.key < $1.key }) {
            let live = changes.filter { $0.until >= now }
            guard let last = live.last else { continue }
            let writtenValue = written.first { $0.key == key }?.value
            let currentValue = current.first { $0.key == key }?.value
            guard writtenValue != currentValue else { continue }
            switch reading {
            case .restoring:
                continue
            case .unknown:
                // Only a merged value still shown is one the save replaces.
                guard last.merged == currentValue else { continue }
                outcomes.append(Outcome(kind: .replacedUnknowingly, field: key, merged: currentValue, written: writtenValue, device: last.device))
            case .at(let instant):
                let unseen = live.filter { $0.published.map { $0 > instant } ?? true }
                guard let first = unseen.first, let latest = unseen.last else { continue }  // read after every merge: an ordinary edit
                if writtenValue == first.before {
                    // A stale read: the writer saved what the mount showed it before the merge.
                    if let index = result.firstIndex(where: { $0.key == key }) {
                        if let currentValue { result[index].value = currentValue } else { result.remove(at: index) }
                    } else if let currentValue {
                        result.append((key, currentValue))
                    }
                    outcomes.append(Outcome(kind: .kept, field: key, merged: currentValue, written: writtenValue, device: latest.device))
                } else {
                    outcomes.append(Outcome(kind: .replacedConcurrently, field: key, merged: currentValue, written: writtenValue, device: latest.device))
                }
            }
        }
        return (result, outcomes)
    }

    private mutating func forgetExpired(now: Int) {
        created = created.filter { $0.value.until >= now }
        for (id, fields) in entries {
            let kept = fields.compactMapValues { list -> [Change]? in
                let live = list.filter { $0.until >= now }
                return live.isEmpty ? nil : live
            }
            entries[id] = kept.isEmpty ? nil : kept
        }
    }
}
