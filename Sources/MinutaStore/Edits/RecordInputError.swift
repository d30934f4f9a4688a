/// Why a record or tags file a user wrote was refused (SPEC section 4, "Bad input").
public enum RecordInputError: Error, Sendable, Equatable, CustomStringConvertible {
    case syntax(JSONSyntaxError)
    case notAnObject(expected: String)
    case wrongType(field: String, expected: String)
    case missingField(String)
    case invalidDate(field: String)
    /// A start whose date in the store's time zone (`zone`) is outside the years 1 to 9999: no month
    /// document can hold the record.
    case startOutsideStoreYears(zone: String)
    case endBeforeStart
    case invalidImageName(String)
    case invalidID(String)
    case idOfAnotherRecord(String)
    /// A file created new, without an id, under a name that another record was filed under while it
    /// was written (by its start, or by a sync tool): saving it would have changed that record.
    case nameTakenWhileCreated
    case duplicateID(String)
    /// The file is larger than the store takes for it (`limit` bytes); nothing of it was kept.
    case tooLarge(limit: Int)
    /// An integer, written without fraction or exponent, that fits no 64-bit integer type.
    case integerOutOfRange(field: String, String)
    /// A record's JSON written under a name that is not a record file, in a month folder.
    case recordUnderOtherName(String)
    /// A record's JSON written in a folder inside a month folder (its path relative to the month folder).
    case recordInSubfolder(String)
    /// `tags.json`'s JSON written under another name beside it (`tags.json.new`).
    case tagsUnderOtherName(String)

    public var description: String {
        switch self {
        case .syntax(let error): "\(error)"
        case .notAnObject(let expected): "expected \(expected)"
        case .wrongType(let field, let expected): "\"\(field)\": expected \(expected)"
        case .missingField(let field): "\"\(field)\" is required"
        case .invalidDate(let field): "\"\(field)\": expected an ISO 8601 date such as \"2024-01-15T09:30:00Z\" (any UTC offset, optional fractional seconds) or integer milliseconds, between the years 1 and 9999"
        case .startOutsideStoreYears(let zone): "\"startTime\": in the store's time zone (\(zone)) it falls outside the years 1 to 9999, so no month can hold the record"
        case .endBeforeStart: "\"endTime\" is before \"startTime\""
        case .invalidImageName(let name): "\"images\": \(Self.quoted(name)) is not a plain file name (no '/', no '..', no NUL, no newline, not empty)"
        case .invalidID(let id): "\"id\": \(Self.quoted(id)) is not a UUID"
        case .idOfAnotherRecord(let id): "\"id\": \(id) belongs to another record; a file's id cannot be changed"
        case .duplicateID(let id): "\"id\": \(id) appears twice"
        case .nameTakenWhileCreated: "this file was created new, and while it was written another record was filed under its name; saving it there would have changed that record (kept in .minutafs/rejected/). To add it as a record of its own, write it under another name"
        case .tagsUnderOtherName(let name): "this is tags.json's JSON under \(Self.quoted(name)); it was not copied to the synced folder (kept in .minutafs/rejected/). To save an edit, rename it over tags.json"
        case .recordUnderOtherName(let name): "this is a record's JSON under \(Self.quoted(name)), which is not a record file name; it was not copied to the synced folder (kept in .minutafs/rejected/). To save an edit, rename it over the record's file; to add a record, name it *.json"
        case .recordInSubfolder(let path): "this is a record's JSON in a folder inside the month folder (\(Self.quoted(path))), where record files are not; it was not copied to the synced folder (kept in .minutafs/rejected/). To add or save a record, write it directly in a month folder, records/YYYY/MM/NAME.json"
        case .integerOutOfRange(let field, let text): "\"\(field)\": \(text) fits no 64-bit integer (the largest is 18446744073709551615); write it with a fraction or an exponent (\(text).0) to store it as a floating-point number"
        case .tooLarge(let limit): "the file is larger than \(limit >> 20) MiB, the most minutafs takes for it; nothing was saved"
        }
    }

    /// `text` as a JSON string: a name with a newline or a NUL stays on the one line of
    /// `.minutafs/errors` it is reported in.
    static func quoted(_ text: String) -> String {
        var output: [UInt8] = []
        JSONWriter.writeString(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The top-level field the error is about, to find its line and column.
    var field: String? {
        switch self {
        case .wrongType(let field, _), .invalidDate(let field), .integerOutOfRange(let field, _): field
        case .missingField, .syntax, .notAnObject, .tooLarge, .recordUnderOtherName, .recordInSubfolder, .tagsUnderOtherName, .nameTakenWhileCreated: nil
        case .endBeforeStart: RecordField.endTime.key
        case .invalidImageName: RecordField.images.key
        case .invalidID, .idOfAnotherRecord, .duplicateID: "id"
        case .startOutsideStoreYears: RecordField.startTime.key
        }
    }
}
