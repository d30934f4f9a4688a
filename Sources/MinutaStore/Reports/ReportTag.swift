/// A tag as the reports name and color it: from `tags.json`, deleted and archived tags included,
/// named as stored.
public struct ReportTag: Sendable, Equatable {
    public var id: String
    public var name: String
    /// `#RRGGBB` as stored, or `nil` when the tag has no usable color.
    public var color: String?

    public init(id: String, name: String, color: String?) {
        self.id = id
        self.name = name
        self.color = color
    }

    /// The tags of a `tags.json` file (`{"tags": [...]}`), in its order (by createdAt).
    public static func tags(inTagsFile json: JSONValue) -> [ReportTag] {
        guard case .array(let entries)? = json["tags"] else { return [] }
        return entries.compactMap { entry -> ReportTag? in
            guard case .string(let id)? = entry["id"] else { return nil }
            var name = id
            if case .string(let stored)? = entry["name"] { name = stored }
            var color: String?
            if case .string(let stored)? = entry["color"], Self.isHexColor(stored) { color = stored }
            return ReportTag(id: id, name: name, color: color)
        }
    }

    /// `#RGB` or `#RRGGBB`: the only colors put into a picture as they are.
    static func isHexColor(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "#"), bytes.count == 7 || bytes.count == 4 else { return false }
        return bytes.dropFirst().allSatisfy { byte in
            (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
        }
    }
}
