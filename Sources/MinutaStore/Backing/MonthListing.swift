/// Which months and years the backing folder has: a month has a document, an image folder, conflict
/// copies waiting for a read-only command, or a document deleted while held (still shown). Looks at the
/// folder the store was opened on, wherever it is now (`BackingFolder.readingPath`), and takes no lock.
struct MonthListing: Sendable {
    let backingFolder: BackingFolder
    /// Month documents held but deleted from the folder: still listed.
    let deletedMonths: DeletedDocuments
    /// Conflict copies a read-only command reads: a month with only copies is listed.
    let waitingCopyReader: WaitingCopyReader

    /// The path to read `relative` from.
    func readable(_ relative: String) -> String { backingFolder.readingPath + "/" + relative }

    /// The months that have a document or an image folder, in order.
    func months() throws(StoreError) -> [Month] {
        let records = readable("records")
        guard BackingFiles.status(records)?.isDirectory == true else { return [] }
        var result: [Month] = []
        for yearName in try BackingFiles.listDirectory(records) {
            result += try months(inYear: yearName)
        }
        return Array(Set(result).union(deletedMonths.all)).sorted()
    }

    /// The months of one year folder (`records/2024`) that have a document or an image folder, in order;
    /// empty when the year has no folder.
    func months(inYear yearName: String) throws(StoreError) -> [Month] {
        let records = readable("records")
        let folder = records + "/" + yearName
        var result = deletedMonths.months(inYear: yearName)  // still shown
        guard BackingFiles.status(records)?.isDirectory == true,
              BackingFiles.status(folder)?.isDirectory == true else { return result.sorted() }
        result.formUnion(waitingCopyReader.monthsWithOnlyCopies(inYear: yearName))
        for entry in try BackingFiles.listDirectory(folder) {
            if let month = Month(yearName: yearName, documentName: entry) {
                result.insert(month)
            } else if let month = Month(yearName: yearName, monthName: entry),
                      BackingFiles.status(folder + "/" + entry)?.isDirectory == true {
                result.insert(month)
            }
        }
        return result.sorted()
    }

    /// Whether `months()` includes `month`, without listing every year: a few `lstat` calls.
    func hasMonth(_ month: Month) -> Bool {
        if deletedMonths.contains(month) { return true }
        // Which folder to read is looked up once (a `stat` of the store's path), not for each path.
        let root = backingFolder.readingPath + "/"
        guard BackingFiles.status(root + "records")?.isDirectory == true,
              BackingFiles.status(root + "records/" + month.yearName)?.isDirectory == true else { return false }
        return BackingFiles.status(root + month.documentPath) != nil
            || BackingFiles.status(root + month.folderPath)?.isDirectory == true
            || waitingCopyReader.hasCopies(month.documentPath)
    }

    /// The years that have at least one month folder or document, or an empty folder.
    func years() throws(StoreError) -> [String] {
        let records = readable("records")
        guard BackingFiles.status(records)?.isDirectory == true else { return [] }
        return try BackingFiles.listDirectory(records).filter { name in
            Month.isYearName(name) && BackingFiles.status(records + "/" + name)?.isDirectory == true
        }
    }
}
