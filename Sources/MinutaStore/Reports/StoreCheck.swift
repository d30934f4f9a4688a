/// `minutafs check`: everything that would stop the store from being shown whole, read through the
/// store's own reads (a document that does not load is a problem, never a change).
struct StoreCheck {
    let store: Store

    /// One line per problem: unloadable documents, conflict copies waiting, missing images,
    /// records filed in a month their startTime is not in.
    func problems() -> [String] {
        var problems: [String] = []
        do { _ = try store.tagsDocument() } catch { problems.append(error.description) }
        let months: [Month]
        do { months = try store.months() } catch { return problems + [error.description] }
        for month in months {
            let files: [RecordFile]
            do { files = try store.recordFiles(in: month) } catch { problems.append(error.description); continue }
            // The same load as `recordFiles` just above, whose failure is already listed.
            guard let document = try? store.document(of: month) else { continue }
            for file in files {
                guard let record = RecordView.object(file.id, in: document) else { continue }
                for image in RecordView.images(of: record, in: document) {
                    let path = month.folderPath + "/" + image
                    if !FieldRule.isValidFileName(image) || store.passThroughStatus(path) == nil {
                        problems.append("\(month.folderPath)/\(file.name): image \(image) is missing")
                    }
                }
                if RecordView.startTime(of: record, in: document) == nil {
                    problems.append("\(month.folderPath)/\(file.name): record \(file.id) has no usable startTime")
                }
            }
        }
        do {
            for (copy, primary) in try ConflictCopyMerger(store: store).conflictCopies() {
                // An empty one is not merged yet by anything: it waits for its bytes.
                let isEmpty = BackingFiles.status(store.replicas.absolute(copy))?.size == 0
                problems.append("\(copy): conflict copy of \(primary) "
                    + (isEmpty ? "waiting for its bytes: \(UnreadableReason.empty)" : "waiting to be merged (run `minutafs merge`)"))
            }
        } catch {
            problems.append(error.description)
        }
        return problems
    }
}
