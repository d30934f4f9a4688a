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
        // Every file shows the document's time but those of records this store changed lately. When those
        // are fewer than the files (a mount's usual case), they are found by id: making each file's id a key
        // (upper-cased) and looking it up costs a save 45 µs in a month of 300 records. The times are kept
        // by the file's index in an array: a dictionary look-up per file would cost a save 40,000 instructions.
        let recent = recentChanges.changedRecords
        var changeTimes = [Int](repeating: fileTime, count: view.files.count)
        if recent.count < view.files.count {
            for (id, time) in recent {
                if let index = view.indexByID[id], RecordID(view.files[index].id) == id { changeTimes[index] = time }
            }
        } else {
            for index in view.files.indices {
                if let time = recent[RecordID(view.files[index].id)] { changeTimes[index] = time }
            }
        }
        for index in view.files.indices {
            if view.files[index].modificationTime != changeTimes[index] { view.files[index].modificationTime = changeTimes[index] }
        }
        return view
    }
}
