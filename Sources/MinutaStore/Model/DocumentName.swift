/// A document of the store, named by its path relative to the store folder: the tags document,
/// `tags.automerge`, or a month's, `records/YYYY/MM.automerge`. Parsing and printing both spellings in
/// one place, so no code compares against a literal of its own.
package enum DocumentName: Hashable, Sendable, CustomStringConvertible {
    case tags
    case month(Month)

    /// `tags.automerge`: the tags document's path, relative to the store.
    package static let tagsPath = "tags.automerge"

    /// Parses a path relative to the store: `tags.automerge` or `records/YYYY/MM.automerge`; nil for
    /// anything else (a conflict copy, a temporary file, another folder).
    package init?(relativePath: some StringProtocol) {
        if relativePath == Self.tagsPath {
            self = .tags
        } else if let month = Month(documentPath: relativePath) {
            self = .month(month)
        } else {
            return nil
        }
    }

    /// The tags document for nil, else `month`'s.
    package init(_ month: Month?) {
        self = month.map(DocumentName.month) ?? .tags
    }

    /// The path relative to the store: `tags.automerge` or `records/2024/07.automerge`.
    package var relativePath: String {
        switch self {
        case .tags: Self.tagsPath
        case .month(let month): month.documentPath
        }
    }

    /// The path the mount shows the document as: `tags.json` or the month's folder, `records/2024/07`.
    package var shownPath: String {
        switch self {
        case .tags: "tags.json"
        case .month(let month): month.folderPath
        }
    }

    /// The month, for a month's document.
    package var month: Month? {
        if case .month(let month) = self { return month }
        return nil
    }

    package var description: String { relativePath }
}
