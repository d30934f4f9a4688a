import MinutaStore
import AutomergeKit

/// The check after a migration (seed 003, "verification"): every legacy tag and record is in the
/// documents now on disk with the same values, and every image a record lists that existed before
/// is in the folder of the month that holds the record. Reads the documents afresh from disk.
public struct MigrationVerification: Sendable {
    /// Tags and records the tags document and the month documents hold in all.
    public private(set) var documentTags = 0
    public private(set) var documentRecords = 0
    /// Legacy tags and records found in the documents.
    public private(set) var tagsFound = 0
    public private(set) var recordsFound = 0
    /// One line per difference; empty when the migration is verified.
    public private(set) var problems: [String] = []

    public var isVerified: Bool { problems.isEmpty }

    /// Verifies `contents` (read from the legacy files at the end of the run) against the documents
    /// of the store at `storePath`: every value must be the same, including ones ``Migration`` kept
    /// because the store was already migrated, so `--cleanup` never removes a value the documents lack.
    ///
    /// - Parameter progress: called with (steps done, steps in all): one step per month document
    ///   loaded and per record compared.
    public init(storePath: String, contents: LegacyStoreContents, progress: (Int, Int) -> Void = { _, _ in }) {
        var tagsDocument = Document()
        if BackingFiles.status(storePath + "/" + DocumentName.tagsPath)?.isRegularFile == true {
            do {
                tagsDocument = try Migration.load(storePath + "/" + DocumentName.tagsPath, relative: DocumentName.tagsPath, actor: .random())
            } catch {
                problems.append(error.description)
            }
        } else if !contents.tags.isEmpty || contents.hasTagsFile {
            problems.append("tags.automerge: missing")
        }
        var tagKeys: [RecordID: String] = [:]
        for key in tagsDocument.keys(of: .root) where LegacyTag(key: key, in: tagsDocument) != nil { tagKeys[RecordID(key)] = key }
        documentTags = tagKeys.count
        for tag in contents.tags {
            guard let key = tagKeys[RecordID(tag.id)], let stored = LegacyTag(key: key, in: tagsDocument) else {
                problems.append("tags.json: tag \(tag.id) (\(tag.name)) is not in tags.automerge")
                continue
            }
            tagsFound += 1
            if !tag.hasSameValues(as: stored) {
                problems.append("tags.json: tag \(tag.id) (\(tag.name)) has other values in tags.automerge")
            }
        }
        for (key, value) in contents.tagsFileFields.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            let file = contents.tagsFileFieldFiles[key] ?? "tags.json"
            guard let stored = tagsDocument.value(of: .root, key: key) else {
                problems.append("\(file): \"\(key)\" is not in tags.automerge")
                continue
            }
            if !StoredFields.same([key: value], [key: TypedValue.json(stored, in: tagsDocument)]) {
                problems.append("\(file): \"\(key)\" has another value in tags.automerge")
            }
        }

        var documents: [Month: Document] = [:]
        var located: [RecordID: (month: Month, key: String)] = [:]
        var done = 0
        do {
            let months = try Self.documentMonths(storePath)
            let total = months.count + contents.records.count
            for month in months {
                defer { done += 1; progress(done, total) }
                do {
                    let document = try Migration.load(storePath + "/" + month.documentPath, relative: month.documentPath, actor: .random())
                    documents[month] = document
                    for key in document.keys(of: .root) where RecordView.object(key, in: document) != nil {
                        located[RecordID(key)] = (month, key)
                    }
                } catch {
                    problems.append(error.description)
                }
            }
        } catch {
            problems.append(error.description)
        }
        documentRecords = located.count
        let total = done + contents.records.count
        for entry in contents.records {
            defer { done += 1; progress(done, total) }
            let record = entry.record
            guard let (month, key) = located[RecordID(record.id)], let document = documents[month] else {
                problems.append("\(entry.file): record \(record.id) is in no month document")
                continue
            }
            recordsFound += 1
            let stored = LegacyRecord(key: key, in: document)
            if let stored, record.hasSameValues(as: stored) {} else {
                problems.append("\(entry.file): record \(record.id) has other values in \(month.documentPath)")
            }
            for image in stored?.images ?? record.images {
                let existedBefore = BackingFiles.status(storePath + "/" + entry.folder.folderPath + "/" + image)?.isRegularFile == true
                if existedBefore && BackingFiles.status(storePath + "/" + month.folderPath + "/" + image)?.isRegularFile != true {
                    problems.append("\(entry.file): image \(image) is not in \(month.folderPath)/")
                }
            }
        }
    }

    static func documentMonths(_ storePath: String) throws(StoreError) -> [Month] {
        let records = storePath + "/records"
        guard BackingFiles.status(records)?.isDirectory == true else { return [] }
        var result: [Month] = []
        for year in try BackingFiles.listDirectory(records) where BackingFiles.status(records + "/" + year)?.isDirectory == true {
            for name in try BackingFiles.listDirectory(records + "/" + year) where name.hasSuffix(".automerge") {
                if let month = Month(yearName: year, documentName: name),
                   BackingFiles.status(storePath + "/" + month.documentPath)?.isRegularFile == true {
                    result.append(month)
                }
            }
        }
        return result.sorted()
    }
}
