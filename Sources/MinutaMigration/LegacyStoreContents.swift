import AutomergeKit
import MinutaStore
/// Everything read from a legacy JSON store: the tags, the records with the files they came
/// from, and what could not be read.
public struct LegacyStoreContents: Sendable {
    /// One record and where it was found.
    public struct Entry: Sendable, Equatable {
        public var record: LegacyRecord
        /// The file, relative to the store.
        public var file: String
        /// The month folder the file is in (`records/YYYY/MM/`), where its images are.
        public var folder: Month
    }

    /// Whether the store has a `tags.json`.
    public var hasTagsFile = false
    public var tags: [LegacyTag] = []
    /// Keys of `tags.json` beside `"tags"` (`"version": 3`), kept as root keys of the tags document.
    public var tagsFileFields: [String: JSONValue] = [:]
    /// The file each of ``tagsFileFields`` was read from.
    public var tagsFileFieldFiles: [String: String] = [:]
    /// The file each tag was read from (`tags.json` or a conflict copy of it), by id.
    public var tagFiles: [String: String] = [:]
    public var records: [Entry] = []
    /// Files or entries that could not be read; the migration is not complete while any remain.
    public var failures: [LegacyReadFailure] = []
    /// Every legacy JSON file found, read or not (refused ones too), relative to the store: what
    /// the backup copies and what `--cleanup` removes.
    public var files: [String] = []
    /// The other files of the legacy layout, relative to the store: images and anything else under
    /// `records/` that is not a document, and hidden `.json` files. The backup copies them; the
    /// migration and `--cleanup` leave them alone.
    public var otherFiles: [String] = []
    /// Things worth telling that are not failures (a record stored twice with the same values).
    public var notes: [String] = []

    public init() {}

    /// Whether there is anything legacy in the store at all.
    public var isEmpty: Bool { files.isEmpty }
}
