/// Recognises the names sync tools give conflict copies of a document (SPEC section 5), e.g.
/// Dropbox's `01 (Alice's conflicted copy 2024-01-15).automerge` beside `01.automerge`.
public struct ConflictCopyName: Sendable, Equatable {
    /// The file name of the primary document the copy belongs to (`01.automerge`, `tags.automerge`).
    public let primaryName: String
    /// Which tool's pattern matched, for reports.
    public let tool: String

    /// Matches `name` against every known pattern for a primary document named `base` +
    /// `.automerge`. `base` is `tags` or a two-digit month; it is checked by the caller.
    public static func match(_ name: String) -> ConflictCopyName? {
        // Every pattern holds ".automerge"; most names the mount lists (images, record views) do not,
        // and a byte search is much cheaper than fourteen regular expressions.
        guard containsAutomergeExtension(name) else { return nil }
        // A primary itself (`07.automerge`, `tags.automerge`, most of a year folder) is no copy: the
        // regular expressions are not run (their first use costs a short command a millisecond).
        if name.hasSuffix(".automerge"), isPrimaryBase(String(name.dropLast(".automerge".count))) { return nil }
        for (tool, pattern) in patterns {
            guard let match = name.wholeMatch(of: pattern) else { continue }
            let base = String(match.output.1)
            guard isPrimaryBase(base) else { continue }
            return ConflictCopyName(primaryName: base + ".automerge", tool: tool)
        }
        return nil
    }

    /// Whether ".automerge" occurs in `name`. (A byte loop: `firstRange(of:)` costs as much here as
    /// the listing it serves.)
    private static func containsAutomergeExtension(_ name: String) -> Bool {
        let needle: StaticString = ".automerge"
        let search = { (bytes: UnsafeBufferPointer<UInt8>) -> Bool in
            let count = needle.utf8CodeUnitCount
            guard bytes.count >= count else { return false }
            return needle.withUTF8Buffer { needle in
                for start in 0...(bytes.count - count) where bytes[start] == needle[0] {
                    if bytes[start..<(start + count)].elementsEqual(needle) { return true }
                }
                return false
            }
        }
        return name.utf8.withContiguousStorageIfAvailable(search) ?? Array(name.utf8).withUnsafeBufferPointer(search)
    }

    static func isPrimaryBase(_ base: String) -> Bool {
        if base == "tags" { return true }
        guard let month = Int(base), base.utf8.count == 2 else { return false }
        return (1...12).contains(month)
    }

    // Each pattern captures the primary's base name. Dates and times are checked for shape only.
    nonisolated(unsafe) private static let patterns: [(String, Regex<(Substring, Substring)>)] = [
        // Dropbox's own, and the one minutafs writes in its pattern (SPEC 5a): "07 (minutafs conflicted copy 2024-01-15).automerge".
        ("Dropbox", #/([0-9a-z]+) \((?:.+'s |minutafs )?conflicted copy \d{4}-\d{2}-\d{2}(?: \d+)?\)\.automerge/#),
        ("Dropbox", #/([0-9a-z]+) \(Case Conflict(?: \d+)?\)\.automerge/#),
        ("Nextcloud", #/([0-9a-z]+) \(conflicted copy \d{4}-\d{2}-\d{2} \d{6}\)\.automerge/#),
        ("Nextcloud", #/([0-9a-z]+)_conflict-\d{8}-\d{6}\.automerge/#),
        ("iCloud", #/([0-9a-z]+) [2-9]\d*\.automerge/#),
        ("Google Drive", #/([0-9a-z]+) \([1-9]\d*\)\.automerge/#),
        ("Syncthing", #/([0-9a-z]+)\.sync-conflict-\d{8}-\d{6}-[0-9A-Z]{7}\.automerge/#),
        ("Seafile", #/([0-9a-z]+) \(SFConflict [^()]+ \d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\)\.automerge/#),
        ("rclone", #/([0-9a-z]+)\.automerge\.conflict\d+/#),
        ("rclone", #/([0-9a-z]+)\.automerge\.\.path[12]/#),
        ("Resilio", #/([0-9a-z]+)\.Conflict(?:\.\d+)?\.automerge/#),
        ("pCloud", #/([0-9a-z]+)\.automerge\.conflicted/#),
        ("Unison", #/([0-9a-z]+)\.automerge \(conflict_on_\d{4}-\d{2}-\d{2}[^()]*\)/#),
        ("OneDrive", #/([0-9a-z]+)-[A-Za-z0-9][A-Za-z0-9-]*\.automerge/#),
    ]
}
