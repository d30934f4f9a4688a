import AutomergeKit

/// What this build's rendering of records looks like, hashed into every key of the view cache, so a
/// build that renders differently never serves an older build's views.
extension MonthViewCache {
    /// Two sample records rendered with this build's `RecordView`, `JSONWriter` and `RecordNaming`: part
    /// of every cache key, so a build that renders records differently finds none of an older build's
    /// entries even if nobody bumped `MonthViewCache.formatVersion`.
    static func rendererFingerprint(timeZone: StoreTimeZone) -> [UInt8] {
        var document = Document(actor: ActorID(bytes: [UInt8](repeating: 0x5A, count: 16)))
        var output: [UInt8] = []
        do {
            let first = try document.putObject(.map, forKey: "0A1B2C3D-4E5F-4A6B-8C7D-8E9F0A1B2C3D")
            try document.put(.timestamp(1_709_251_200_123), forKey: "startTime", in: first)
            try document.put(.timestamp(1_709_254_800_000), forKey: "endTime", in: first)
            try document.put(.string("F0E1D2C3-B4A5-4968-8776-655443322110"), forKey: "tagId", in: first)
            let comment = try document.putObject(.text, forKey: "comment", in: first)
            try document.spliceText(comment, at: 0, delete: 0, insert: "Zürich \"quoted\"\n\u{1F600} \\ tab\t")
            let images = try document.putObject(.list, forKey: "images", in: first)
            try document.insert(.string("0A1B2C3D-4E5F-4A6B-8C7D-8E9F0A1B2C3D_0.jpg"), at: 0, in: images)
            try document.put(.f64(1.5), forKey: "extra", in: first)
            let second = try document.putObject(.map, forKey: "1A1B2C3D-4E5F-4A6B-8C7D-8E9F0A1B2C3D")
            try document.put(.int(1_709_251_200_123), forKey: "startTime", in: second)
            try document.put(.null, forKey: "endTime", in: second)
            try document.put(.string("plain comment"), forKey: "comment", in: second)
            let records = [("0A1B2C3D-4E5F-4A6B-8C7D-8E9F0A1B2C3D", first), ("1A1B2C3D-4E5F-4A6B-8C7D-8E9F0A1B2C3D", second)]
            for (id, record) in records { output += JSONWriter.pretty(RecordView.json(id: id, record: record, in: document)) }
            let names = RecordNaming.names(for: records.map { ($0.0, RecordView.startTime(of: $0.1, in: document)) }, timeZone: timeZone)
            output += Array(names.joined(separator: "\n").utf8)
        } catch {
            // Cannot happen with these fixed values; an empty fingerprint still keys by the version.
            return []
        }
        return output
    }
}
