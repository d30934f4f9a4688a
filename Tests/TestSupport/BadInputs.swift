import Foundation

/// A write to a record file or `tags.json` of the sample store `app-2024` that the store must refuse
/// (SPEC section 4, "Bad input"), leaving every document byte for byte as it was. The library tests
/// and the mount tests run the same table.
public struct BadInput: Sendable, CustomStringConvertible {
    public enum Target: Sendable, Equatable {
        /// January's `2024-01-03_034234.json` (``BadInput/recordID``: string comment, no images).
        case record
        /// January's record ``BadInput/billableRecordID``, which stores the extra key `billable`.
        case billableRecord
        /// `tags.json`.
        case tags
    }

    public let name: String
    public let target: Target
    /// The bytes written, made from what the file shows now.
    public let bytes: @Sendable (_ current: String) -> [UInt8]
    /// Text the error (and its line in `.minutafs/errors`) must contain.
    public let reason: String

    public var description: String { name }

    public static let recordID = "0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81"
    public static let recordName = "2024-01-03_034234.json"
    public static let billableRecordID = "4DBDD9FA-7277-410B-A143-FEA9A315BFCE"
    /// Another January record.
    public static let otherRecordID = "037D444D-7D12-465A-836C-84B7B7FED59F"

    init(_ name: String, _ target: Target = .record, reason: String, _ bytes: @escaping @Sendable (String) -> [UInt8]) {
        self.name = name
        self.target = target
        self.reason = reason
        self.bytes = bytes
    }

    /// `text` with the value of its first member `key` (as `jq .` lays it out) replaced by the raw
    /// JSON `value`, or the member removed when `value` is nil.
    public static func replacing(_ key: String, with value: String?, in text: String) -> String {
        let member = try! Regex(#"\n *"\#(key)": ("[^"\n]*"|[^,\n]*),?"#)
        guard let match = text.firstMatch(of: member) else { return text }
        let old = String(text[match.range])
        guard let value else {
            // Removing the last member leaves a trailing comma on the one before: drop it too.
            if !old.hasSuffix(",") {
                let before = text[..<match.range.lowerBound]
                return String(before.hasSuffix(",") ? before.dropLast() : before) + text[match.range.upperBound...]
            }
            return text.replacingCharacters(in: match.range, with: "")
        }
        let prefix = old[..<(old.range(of: "\"\(key)\": ")!.upperBound)]
        return text.replacingCharacters(in: match.range, with: prefix + value + (old.hasSuffix(",") ? "," : ""))
    }

    static func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    static func record(_ key: String, _ value: String?) -> @Sendable (String) -> [UInt8] {
        { current in text(replacing(key, with: value, in: current)) }
    }

    /// Every case: broken and truncated JSON, wrong types, dates out of range, endTime before
    /// startTime, ids of other records, image names that are paths, NUL bytes, invalid UTF-8,
    /// deep nesting, and broken tags.
    public static let all: [BadInput] = [
        BadInput("only whitespace", reason: "line 2, column 1: unexpected end of file, expected a value") { _ in text("  \n") },
        BadInput("broken JSON", reason: "line 1, column 16: expected a value") { _ in text(#"{ "startTime": broken"#) },
        BadInput("cut off in the middle", reason: "line 4, column 14: unterminated string") { current in Array(current.utf8.prefix(current.utf8.count / 2)) },
        BadInput("text after the object", reason: "unexpected text after the JSON value") { current in text(current + "}") },
        BadInput("a trailing comma", reason: "line 8, column 1: trailing comma before '}'") { current in text(current.replacingOccurrences(of: "\n}", with: ",\n}")) },
        BadInput("an array instead of an object", reason: "expected a JSON object") { _ in text("[1, 2, 3]\n") },
        BadInput("a bare string", reason: "expected a JSON object") { _ in text("\"hello\"\n") },
        BadInput("startTime of the wrong type", reason: "\"startTime\": expected an ISO 8601 date", record("startTime", "true")),
        BadInput("startTime that is not a date", reason: "\"startTime\": expected an ISO 8601 date", record("startTime", #""yesterday""#)),
        BadInput("a date after the year 9999", reason: "\"endTime\": expected an ISO 8601 date", record("endTime", #""10000-01-01T00:00:00Z""#)),
        BadInput("a date before the year 1", reason: "\"startTime\": expected an ISO 8601 date", record("startTime", #""0000-12-31T00:00:00Z""#)),
        BadInput("milliseconds far beyond the year 9999", reason: "\"endTime\": expected an ISO 8601 date", record("endTime", "99999999999999999")),
        BadInput("a number too large for 64 bits", reason: "line 4, column 3: \"endTime\": expected an ISO 8601 date", record("endTime", "123456789012345678901234567890")),
        BadInput("a number too large for a double", reason: "line 4, column 14: number 1e400 is out of range", record("endTime", "1e400")),
        BadInput("endTime before startTime", reason: "\"endTime\" is before \"startTime\"", record("endTime", #""2024-01-02T00:00:00Z""#)),
        BadInput("startTime missing", reason: "\"startTime\" is required", record("startTime", nil)),
        BadInput("a tagId that is not a UUID", reason: "\"tagId\": expected a UUID string", record("tagId", #""work""#)),
        BadInput("a tagId of the wrong type", reason: "\"tagId\": expected a UUID string", record("tagId", "42")),
        BadInput("a comment of the wrong type", reason: "\"comment\": expected a string", record("comment", "5")),
        BadInput("a comment that is an object", reason: "\"comment\": expected a string", record("comment", #"{"text": "x"}"#)),
        BadInput("images that is not a list", reason: "\"images\": expected an array of file names", record("images", #""x.jpg""#)),
        BadInput("an image name with a slash", reason: "\"images\": \"a/b.jpg\" is not a plain file name", record("images", #"["a/b.jpg"]"#)),
        BadInput("an image named ..", reason: "\"images\": \"..\" is not a plain file name", record("images", #"[".."]"#)),
        BadInput("an absolute image path", reason: "\"/etc/passwd\" is not a plain file name", record("images", #"["/etc/passwd"]"#)),
        BadInput("an image name climbing out of the store", reason: "\"../../x.jpg\" is not a plain file name", record("images", #"["../../x.jpg"]"#)),
        BadInput("an image name with a newline", reason: #""images": "a\nb.jpg" is not a plain file name"#, record("images", #"["a\nb.jpg"]"#)),
        BadInput("an image name with a NUL", reason: #""images": "a\u0000b.jpg" is not a plain file name"#, record("images", #"["a\u0000b.jpg"]"#)),
        BadInput("an empty image name", reason: "\"\" is not a plain file name", record("images", #"[""]"#)),
        BadInput("an image name that is a number", reason: "\"images\": expected an array of file names", record("images", "[1]")),
        BadInput("the id of another record", reason: "belongs to another record", record("id", "\"\(otherRecordID)\"")),
        BadInput("an id that is not a UUID", reason: "\"id\": \"abc\" is not a UUID", record("id", #""abc""#)),
        BadInput("an id of the wrong type", reason: "\"id\": expected a UUID string", record("id", "7")),
        BadInput("a NUL byte between members", reason: "line 1, column 2: expected a key in double quotes, found byte 0x0") { current in [0x7B, 0x00] + Array(current.utf8.dropFirst()) },
        BadInput("invalid UTF-8 in a comment", reason: "line 6, column 15: the file is not valid UTF-8") { current in
            let parts = replacing("comment", with: "\"@@\"", in: current).components(separatedBy: "@@")
            return text(parts[0]) + [0xC3, 0x28, 0xFF] + text(parts[1])
        },
        BadInput("a key written twice", reason: "line 6, column 21: duplicate key \"comment\"", record("comment", #""one", "comment": "two""#)),
        BadInput("nesting 10,000 levels deep", reason: "nesting deeper than 128 levels", record("images", String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000))),
        BadInput("a stored boolean written as a string", .billableRecord, reason: "\"billable\": expected true or false like the stored value", record("billable", #""yes""#)),
        BadInput("tags.json without its tags list", .tags, reason: "expected {\"tags\": [ ... ]}") { _ in text(#"{"tag": []}"#) },
        BadInput("tags that is not a list", .tags, reason: "expected {\"tags\": [ ... ]}") { _ in text(#"{"tags": {}}"#) },
        BadInput("a colour that is not #RRGGBB", .tags, reason: "\"color\": expected a colour", record("color", ##""#GGGGGG""##)),
        BadInput("a tag without a name", .tags, reason: "\"name\" is required", record("name", nil)),
        BadInput("isArchived as a string", .tags, reason: "\"isArchived\": expected true or false", record("isArchived", #""no""#)),
        BadInput("createdAt that is not a date", .tags, reason: "\"createdAt\": expected an ISO 8601 date", record("createdAt", #""soon""#)),
        BadInput("a tag listed twice", .tags, reason: "appears twice") { current in
            let tags = current.components(separatedBy: "\"tags\": [")[1]
            let first = tags[..<tags.range(of: "},")!.lowerBound] + "}"
            return text(current.replacingOccurrences(of: "\"tags\": [", with: "\"tags\": [" + first + ","))
        },
    ]
}
