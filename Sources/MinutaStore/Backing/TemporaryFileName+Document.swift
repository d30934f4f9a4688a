extension TemporaryFileName {
    /// The document (relative path) a temporary file named `name` in `folder` was written for, if it
    /// is one: `.01.automerge.minutafs-HEX.tmp` in `records/YYYY`, `.tags.automerge.minutafs-HEX.tmp`
    /// at the top.
    static func document(ofFileNamed name: String, in folder: String) -> String? {
        guard let target = parse(name)?.target else { return nil }
        if folder.isEmpty { return target == DocumentName.tagsPath ? target : nil }
        guard let month = Month(documentPath: folder + "/" + target) else { return nil }
        return month.documentPath
    }
}
