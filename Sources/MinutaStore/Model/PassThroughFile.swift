/// What the store can tell of a file it passes through to the backing folder (an image, a note) by its
/// name or bytes: whether it is a record or `tags.json` under another name, and which record an image
/// name belongs to.
enum PassThroughFile {
    /// Whether bytes are a record's JSON: an object with a UUID `id` or a `startTime`. Such a file in a
    /// month folder under another name would put a copy of the record on every device.
    static func isRecordJSON(_ bytes: [UInt8]) -> Bool {
        guard bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{"),
              let value = try? JSONParser.parse(bytes), case .object = value else { return false }
        if case .string(let id)? = value[RecordField.id.key], UUIDText.isValid(id) { return true }
        return value[RecordField.startTime.key] != nil
    }

    /// Whether bytes are `tags.json`'s JSON: an object with a `tags` list.
    static func isTagsJSON(_ bytes: [UInt8]) -> Bool {
        guard bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{"),
              let value = try? JSONParser.parse(bytes), case .array? = value["tags"] else { return false }
        return true
    }

    /// `<record id>_<n>.<ext>`: the record an image name belongs to.
    static func imageOwner(_ name: String) -> String? {
        guard name.utf8.count > 38, let underscore = name.firstIndex(of: "_") else { return nil }
        let id = String(name[..<underscore])
        return UUIDText.isValid(id) ? id : nil
    }
}
