import Foundation
import MinutaStore
import MinutaTimer

/// What the last terminal command changed, kept for `minutafs undo` in
/// `last-command.json` of the state folder (`$XDG_STATE_HOME/minutafs/`, else
/// `~/.local/state/minutafs/`, see ``MountFolders``), on this machine only, never in the synced folder
/// (SPEC 10). One command is kept: the next replaces it.
struct UndoJournal {
    var store: String
    var command: String
    var changes: [TimerChange]

    static func file() -> String? {
        MountFolders.current().state.map { $0 + "/last-command.json" }
    }

    /// The store a backend works on, the same however it is reached (its folder, resolved, even
    /// through a mount), so `undo` never sets back another store.
    static func storeIdentity(of actions: TimerActions) -> String {
        var path = actions.backend.placeDescription
        if let mount = actions.backend as? MountTimerBackend {
            path = (try? MountTable.current().mounts.last { $0.mountPoint == mount.mountPoint && $0.isMinutafs }?.source) ?? mount.mountPoint
        }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// Saves what a command changed (nothing is saved for a command that changed nothing). A journal
    /// that cannot be written is said on standard error: the change itself is made.
    static func record(_ changes: [TimerChange], command: String, actions: TimerActions) {
        guard !changes.isEmpty, let file = file() else { return }
        let journal = UndoJournal(store: storeIdentity(of: actions), command: command, changes: changes)
        do {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(JSONWriter.pretty(journal.json)).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            FileHandle.standardError.write(Data("minutafs: \(file): not written, so `minutafs undo` cannot set this command back: \(error.localizedDescription)\n".utf8))
        }
    }

    static func load() -> UndoJournal? {
        guard let file = file(), let data = FileManager.default.contents(atPath: file),
              let value = try? JSONParser.parse([UInt8](data)) else { return nil }
        return UndoJournal(json: value)
    }

    static func forget() {
        if let file = file() { try? FileManager.default.removeItem(atPath: file) }
    }

    var json: JSONValue {
        .object([
            ("store", .string(store)), ("command", .string(command)),
            ("changes", .array(changes.map { change in
                switch change {
                case let .createdRecord(id, month):
                    .object([("kind", .string("createdRecord")), ("id", .string(id)), ("month", .string(month.yearSlashMonth))])
                case .changedRecord(let before):
                    .object([("kind", .string("changedRecord")), ("month", .string(before.month.yearSlashMonth)), ("file", .string(before.fileName)), ("json", before.json)])
                case .removedRecord(let before):
                    .object([("kind", .string("removedRecord")), ("month", .string(before.month.yearSlashMonth)), ("file", .string(before.fileName)), ("json", before.json)])
                case let .createdTag(id, name):
                    .object([("kind", .string("createdTag")), ("id", .string(id)), ("name", .string(name))])
                }
            })),
        ])
    }

    init(store: String, command: String, changes: [TimerChange]) {
        self.store = store
        self.command = command
        self.changes = changes
    }

    init?(json: JSONValue) {
        guard case .string(let store)? = json["store"], case .string(let command)? = json["command"],
              case .array(let entries)? = json["changes"] else { return nil }
        var changes: [TimerChange] = []
        for entry in entries {
            guard case .string(let kind)? = entry["kind"] else { return nil }
            var month: Month?
            if case .string(let text)? = entry["month"] { month = Month(yearSlashMonth: text) }
            switch kind {
            case "createdRecord":
                guard case .string(let id)? = entry["id"], let month else { return nil }
                changes.append(.createdRecord(id: id, month: month))
            case "changedRecord", "removedRecord":
                guard case .string(let file)? = entry["file"], let month, let body = entry["json"],
                      let record = TimerRecord(month: month, fileName: file, bytes: JSONWriter.pretty(body)) else { return nil }
                changes.append(kind == "changedRecord" ? .changedRecord(before: record) : .removedRecord(before: record))
            case "createdTag":
                guard case .string(let id)? = entry["id"], case .string(let name)? = entry["name"] else { return nil }
                changes.append(.createdTag(id: id, name: name))
            default:
                return nil
            }
        }
        self.init(store: store, command: command, changes: changes)
    }
}
