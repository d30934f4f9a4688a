import Foundation
import MinutaStore
import MinutaTimer
import SystemPackage

/// What the last terminal command changed, kept for `minutafs undo` in
/// `last-command.json` of the state folder (`$XDG_STATE_HOME/minutafs/`, else
/// `~/.local/state/minutafs/`, see ``MountFolders``), on this machine only, never in the synced folder
/// (SPEC 10): the documents it changed, with their heads before and after it, which name its changes
/// in their history. One command is kept: the next replaces it.
struct UndoJournal: Codable {
    var store: String
    var command: String
    var documents: [DocumentHeads]

    static func file() -> String? {
        MountFolders.current().state.map { $0 + "/last-command.json" }
    }

    /// The store a backend works on, the same however it is reached (its folder, resolved, even
    /// through a mount), so `undo` never sets back another store.
    static func storeIdentity(of actions: TimerActions) -> String {
        var path = actions.backend.placeDescription
        if let mount = actions.backend as? MountTimerBackend {
            path = (try? MountTable.current().mounts.last { $0.mountPoint == FilePath(mount.mountPoint) && $0.isMinutafs }?.source) ?? mount.mountPoint
        }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// Saves what a command changed (nothing is saved for a command that changed nothing). A journal
    /// that cannot be written is said on standard error: the change itself is made.
    static func record(_ documents: [DocumentHeads], command: String, actions: TimerActions) {
        guard !documents.isEmpty, let file = file() else { return }
        let journal = UndoJournal(store: storeIdentity(of: actions), command: command, documents: documents)
        do {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(journal).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            FileHandle.standardError.write(Data("minutafs: \(file): not written, so `minutafs undo` cannot set this command back: \(error.localizedDescription)\n".utf8))
        }
    }

    /// The journal; nil when there is none, or it is not one this version reads.
    static func load() -> UndoJournal? {
        guard let file = file(), let data = FileManager.default.contents(atPath: file) else { return nil }
        return try? JSONDecoder().decode(UndoJournal.self, from: data)
    }

    static func forget() {
        if let file = file() { try? FileManager.default.removeItem(atPath: file) }
    }
}
