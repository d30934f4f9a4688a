/// A month document deleted from the backing folder while the store holds it (a user's `rm`, a sync
/// tool's delete from another device): its records stay shown from memory, read-only, and the store
/// says so in `.minutafs/status` and `.minutafs/errors`. A save of one of its records writes the whole
/// month back, and that is said too; so is the file coming back by itself (`Registry/DeletedDocuments.swift`).
extension Store {
    /// Month documents held but gone from the folder, in order.
    public var deletedDocuments: [Month] {
        deletedMonths.all
    }

    /// Whether `month`'s document was deleted from the folder while held (its records are read-only).
    public func isDeletedDocument(_ month: Month) -> Bool {
        deletedMonths.contains(month)
    }

    /// Looks for held month documents whose file disappeared or came back; returns the months whose
    /// state changed (their record files change from writable to read-only or back).
    public func noticeDeletedDocuments() -> [Month] {
        let held = replicas.heldMonthsWithFiles()
        // Looked at with `state` released.
        return deletedMonths.notice(held: held, folder: path)
    }
}
