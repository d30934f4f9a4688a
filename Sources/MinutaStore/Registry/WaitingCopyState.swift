/// What a store that merges conflict copies in memory knows of them (`Conflicts/WaitingCopyReader.swift`).
struct WaitingCopyState: Sendable {
    /// Per folder (relative, "" for the store's own): primary name to the copies' names.
    var folders: [String: [String: [String]]] = [:]
    var merged: Set<String> = []
    var unreadable: [String: String] = [:]
}
