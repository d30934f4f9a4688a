import AutomergeKit

/// A document file of the store that does not load, as the store last saw it (SPEC 5a).
struct UnreadableDocument: Sendable {
    var reason: UnreadableReason
    /// The file's identity when it failed to load: a different one is a new version, tried again.
    var identity: BackingFiles.Identity?
    /// When the store first found it unreadable (seconds since the epoch).
    var since: Int
    /// The conflict copy this store wrote its held changes to, if it held any the file may lack.
    var preservedIn: String?
    /// The heads written to that copy, so it is written once per state.
    var preservedHeads: Set<ChangeHash> = []
}
