import MinutaStore

/// Records of a store that is not mounted, read and written directly through the store library; the
/// caller holds the store's writer lock for commands that write (SPEC 10: never both this and a mount).
public struct StoreTimerBackend: TimerBackend {
    public let store: Store
    /// Held for as long as the backend is used; nil for commands that only read.
    let lock: StoreLock?
    public var timeZone: StoreTimeZone { store.timeZone }
    public var placeDescription: String { store.path }

    public init(store: Store, lock: StoreLock?) {
        self.store = store
        self.lock = lock
    }

    public func months() throws(TimerError) -> [Month] {
        do { return try store.months() } catch { throw .storeFailed(file: store.path, reason: error.description) }
    }

    public func recordFiles(in month: Month) throws(TimerError) -> [(name: String, bytes: [UInt8])] {
        do { return try store.recordFiles(in: month).map { ($0.name, $0.contents) } } catch {
            throw .storeFailed(file: month.documentPath, reason: error.description)
        }
    }

    public func tagsJSON() throws(TimerError) -> [UInt8] {
        do { return try store.tagsFile() } catch { throw .storeFailed(file: DocumentName.tagsPath, reason: error.description) }
    }

    public func write(_ bytes: [UInt8], named name: String, in month: Month) throws(TimerError) {
        do { _ = try store.writeRecordFile(bytes, named: name, in: month) } catch {
            throw .storeFailed(file: month.folderPath + "/" + name, reason: error.description)
        }
    }

    public func create(_ bytes: [UInt8], in month: Month) throws(TimerError) -> String {
        // A name no record has in that month: the store files the record by its start and gives it an id.
        let name = "minutafs-start-" + String(UInt32.random(in: 0...UInt32.max), radix: 16) + ".json"
        do { return try store.writeRecordFile(bytes, named: name, in: month).id } catch {
            throw .storeFailed(file: month.folderPath, reason: error.description)
        }
    }
}
