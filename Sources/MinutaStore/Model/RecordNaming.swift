import AutomergeKit

/// Names record files: `YYYY-MM-DD_HHMMSS.json` from the startTime in the store's time zone,
/// `_<first 8 characters of the id>` added for every record sharing its second with another,
/// `<id>.json` for a record without a usable startTime. The same on every machine.
package enum RecordNaming {
    package static func names(for records: [(id: String, startTime: Int64?)], timeZone: StoreTimeZone) -> [String] {
        let stems = records.map { record in record.startTime.map { timeZone.fileStem(ofMilliseconds: $0) } }
        var counts: [String: Int] = [:]
        for case let stem? in stems { counts[stem, default: 0] += 1 }
        return zip(records, stems).map { record, stem in
            guard let stem else { return fileNameComponent(record.id) + ".json" }
            if counts[stem, default: 0] > 1 { return stem + "_" + fileNameComponent(String(record.id.prefix(8))) + ".json" }
            return stem + ".json"
        }
    }

    /// A record id as part of a file name. The app's ids are UUIDs and stay as they are; a key some
    /// other program wrote may hold `/`, NUL or control characters: those and `%` are
    /// percent-encoded, so a name never reaches outside its folder and stays on one line. An id
    /// longer than 200 bytes is cut there and followed by a hash of the whole id (names are at
    /// most 255 bytes).
    package static func fileNameComponent(_ id: String) -> String {
        var encoded = ""
        for scalar in id.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "/" || scalar == "%" {
                encoded += "%" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            } else {
                encoded.unicodeScalars.append(scalar)
            }
        }
        guard encoded.utf8.count > 200 else { return encoded }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: the same on every machine
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        var cut = ""
        for character in encoded {
            guard cut.utf8.count + character.utf8.count <= 200 else { break }
            cut.append(character)
        }
        return cut + "~" + String(hash, radix: 16)
    }
}
