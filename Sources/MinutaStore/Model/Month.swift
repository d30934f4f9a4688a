/// A calendar month: the unit of one records document (`records/YYYY/MM.automerge`).
public struct Month: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int

    public init?(year: Int, month: Int) {
        guard (1...9999).contains(year), (1...12).contains(month) else { return nil }
        self.year = year
        self.month = month
    }

    /// Whether `name` is a year folder's name: four ASCII digits (`2024`). The one test of it: listings,
    /// paths in the mount, the commands' options and the timer all ask here.
    public static func isYearName<S: StringProtocol>(_ name: S) -> Bool {
        name.utf8.count == 4 && name.utf8.allSatisfy { (48...57).contains($0) }
    }

    /// Parses the folder names `YYYY` and `MM`.
    public init?(yearName: String, monthName: String) {
        guard Self.isYearName(yearName), monthName.utf8.count == 2, monthName.utf8.allSatisfy({ (48...57).contains($0) }),
              let year = Int(yearName), let month = Int(monthName) else { return nil }
        self.init(year: year, month: month)
    }

    /// Parses a document's name in its year folder, `MM.automerge`.
    public init?(yearName: String, documentName: some StringProtocol) {
        guard documentName.hasSuffix(Self.documentExtension) else { return nil }
        self.init(yearName: yearName, monthName: String(documentName.dropLast(Self.documentExtension.count)))
    }

    /// Parses a document path relative to the store, `records/YYYY/MM.automerge` (see ``documentPath``).
    public init?(documentPath: some StringProtocol) {
        let parts = documentPath.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "records" else { return nil }
        self.init(yearName: String(parts[1]), documentName: parts[2])
    }

    /// The ending of a month's document file.
    public static let documentExtension = ".automerge"

    /// Parses `YYYY/MM`, as the state files (`MoveJournal`, `MovedRecordMemory`) write a month.
    public init?(yearSlashMonth text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        self.init(yearName: String(parts[0]), monthName: String(parts[1]))
    }

    /// `2024/01`.
    public var yearSlashMonth: String { yearName + "/" + monthName }

    public var yearName: String { ISO8601.pad(year, 4) }
    public var monthName: String { ISO8601.pad(month, 2) }
    /// `records/2024/01.automerge`, relative to the store.
    public var documentPath: String { "records/\(yearName)/\(monthName).automerge" }
    /// `records/2024/01`, relative to the store: the month's image folder and its view folder.
    public var folderPath: String { "records/\(yearName)/\(monthName)" }
    public var description: String { "\(yearName)-\(monthName)" }

    public static func < (left: Month, right: Month) -> Bool {
        (left.year, left.month) < (right.year, right.month)
    }
}

extension Month {
    /// How many days the month has (Gregorian calendar).
    public var dayCount: Int {
        let next = month == 12 ? (year + 1, 1) : (year, month + 1)
        return ISO8601.days(year: next.0, month: next.1, day: 1) - ISO8601.days(year: year, month: month, day: 1)
    }
}
