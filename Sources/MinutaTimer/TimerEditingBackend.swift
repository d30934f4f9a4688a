import MinutaStore

/// What `track`, `cancel`, `annotate`, `undo` and tag creation need of a backend beyond
/// ``TimerBackend``: removing a record, saving a record under a name that may not exist yet (a
/// record brought back by `undo`, with its id), and saving `tags.json`.
public protocol TimerEditingBackend: TimerBackend {
    /// Removes the record a file shows.
    func remove(named name: String, in month: Month) throws(TimerError)
    /// Saves a record file, creating it when no file has that name.
    func put(_ bytes: [UInt8], named name: String, in month: Month) throws(TimerError)
    /// Saves `tags.json` (a tag without `id` is created, see SPEC 3).
    func writeTags(_ bytes: [UInt8]) throws(TimerError)
}
