import Synchronization

/// The month views readers are answered from without the store's state lock: a copy of every current
/// view the store holds (a loaded or a parked month's), published by `MonthReplicas.withState` as the lock is
/// released, so it always shows what the held documents show between two changes. A lock of its own,
/// taken alone or inside `state` and never around another: a save of one month, which does its file
/// I/O with `state` released and holds this lock only to publish, never makes a reader of another
/// month wait.
final class PublishedViews: Sendable {
    private struct Published: Sendable {
        var views: [Month: MonthView] = [:]
        var loadedDocumentCount = 0
    }

    private let published = Mutex(Published())

    /// The month's current view; nil when it must be rendered (or loaded) under the state lock.
    func view(of month: Month) -> MonthView? {
        published.withLock { $0.views[month] }
    }

    /// How many documents were held decoded (months and tags) when views were last published.
    var loadedDocumentCount: Int { published.withLock { $0.loadedDocumentCount } }

    /// Replaces the views of `changes`' months (nil: no current view) and the loaded count.
    func publish(_ changes: [(month: Month, view: MonthView?)], loadedDocumentCount: Int) {
        published.withLock { published in
            for change in changes { published.views[change.month] = change.view }
            published.loadedDocumentCount = loadedDocumentCount
        }
    }
}
