import MinutaStore

extension StoreTimerBackend: TimerEditingBackend {
    public func remove(named name: String, in month: Month) throws(TimerError) {
        do {
            try noteBeforeWriting(month)
            if let view { try view.removeRecordForTimer(named: name, in: month) } else { try store.deleteRecordFile(named: name, in: month) }
        } catch {
            throw .storeFailed(file: month.folderPath + "/" + name, reason: error.description)
        }
    }

    public func put(_ bytes: [UInt8], named name: String, in month: Month) throws(TimerError) {
        try write(bytes, named: name, in: month)
    }

    public func writeTags(_ bytes: [UInt8]) throws(TimerError) {
        do {
            try noteBeforeWriting(nil)
            if let view { try view.writeTagsForTimer(bytes) } else { _ = try store.writeTagsFile(bytes) }
        } catch { throw .storeFailed(file: "tags.json", reason: error.description) }
    }
}
