import AutomergeKit

/// Names record files: `YYYY-MM-DD_HHMMSS.json` from the startTime in the store's time zone,
/// `_<first 8 characters of the id>` added for every record sharing its second with another,
/// `<id>.json` for a record without a usable startTime. The same on every machine.
enum RecordNaming {
    static func names(for records: [(id: String, startTime: Int64?)], timeZone: StoreTimeZone) -> [String] {
        let stems = records.map { record in record.startTime.map { timeZone.fileStem(ofMilliseconds: $0) } }
        var counts: [String: Int] = [:]
        for case let stem? in stems { counts[stem, default: 0] += 1 }
        return zip(records, stems).map { record, stem in
            guard let stem else { return record.id + ".json" }
            if counts[stem, default: 0] > 1 { return stem + "_" + String(record.id.prefix(8)) + ".json" }
            return stem + ".json"
        }
    }
}

/// Record naming for tests and tools that name records without a store.
public enum RecordNamingProbe {
    public static func names(_ records: [(id: String, startTime: Int64?)], timeZone: StoreTimeZone = .utc) throws -> [String] {
        RecordNaming.names(for: records, timeZone: timeZone)
    }
}
