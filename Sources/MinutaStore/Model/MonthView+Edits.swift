import AutomergeKit

/// A month view brought up to date after a save of this store, without rendering the month again.
extension MonthView {
    /// This view after edits of `changedRecords` that added or removed no record and moved none to another
    /// second (the common save: a comment or an end time): the same names in the same order, those
    /// records rendered again, every modification time taken again (the document file's changed; `fileTime` for records `recentChanges` has no time for). Nil
    /// when the edits did more: then the view is built again.
    func edited(changedRecords: Set<RecordID>, in document: Document, fileTime: Int, recentChanges: RecentRecordChanges) -> MonthView? {
        var view = self
        for key in changedRecords {
            guard let index = view.indexByID[key], RecordID(view.files[index].id) == key,
                  let object = RecordView.object(view.files[index].id, in: document),
                  RecordView.startTime(of: object, in: document) == view.startTimes[index] else { return nil }
            let file = view.files[index]
            let contents = JSONWriter.pretty(RecordView.json(id: file.id, record: object, in: document))
            view.files[index] = RecordFile(name: file.name, id: file.id, contents: contents, modificationTime: file.modificationTime)
        }
        for index in view.files.indices {
            let file = view.files[index]
            let changed = recentChanges.changeTime(of: RecordID(file.id)) ?? fileTime
            if changed != file.modificationTime {
                view.files[index] = RecordFile(name: file.name, id: file.id, contents: file.contents, modificationTime: changed)
            }
        }
        return view
    }
}
