/// Recognises the names sync tools give conflict copies of an ordinary file such as an image
/// (SPEC section 5): Dropbox's `X_0 (Alice's conflicted copy 2024-01-15).jpg`, Google Drive's
/// `X_0 (1).jpg`, iCloud's `X_0 2.jpg`, Nextcloud's `X_0 (conflicted copy 2024-01-15 101010).jpg`
/// and `X_0_conflict-20240115-101010.jpg`, Syncthing's `X_0.sync-conflict-20240115-101010-ABCDEFG.jpg`.
public enum ImageConflictCopyName {
    /// The name of the file `name` is a conflict copy of (`X_0.jpg`), or nil.
    public static func original(ofCopy name: String) -> String? {
        // Every pattern holds a space or "conflict-"; an app image name (`<id>_<n>.jpg`) holds neither,
        // and the mount asks for every image at each sync pass: no regular expression runs for it
        // (they cost most of a ten-year store's start-up and of every live merge).
        guard mayBeCopy(name) else { return nil }
        for pattern in patterns {
            guard let match = name.wholeMatch(of: pattern) else { continue }
            let original = String(match.output.1) + String(match.output.2)
            if original != name { return original }
        }
        return nil
    }

    /// Whether `name` holds a space or "conflict-" (a byte loop: cheap next to the patterns).
    static func mayBeCopy(_ name: String) -> Bool {
        let marker = Array("conflict-".utf8)
        let check = { (bytes: UnsafeBufferPointer<UInt8>) -> Bool in
            if bytes.contains(0x20) { return true }
            guard bytes.count >= marker.count else { return false }
            for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
                if bytes[start..<(start + marker.count)].elementsEqual(marker) { return true }
            }
            return false
        }
        return name.utf8.withContiguousStorageIfAvailable(check) ?? Array(name.utf8).withUnsafeBufferPointer(check)
    }

    // Each pattern captures the original's stem and its extension (with the dot).
    nonisolated(unsafe) private static let patterns: [Regex<(Substring, Substring, Substring)>] = [
        #/(.+) \((?:.+'s )?conflicted copy \d{4}-\d{2}-\d{2}(?: \d+)?\)(\.[A-Za-z0-9]+)/#,
        #/(.+) \(conflicted copy \d{4}-\d{2}-\d{2} \d{6}\)(\.[A-Za-z0-9]+)/#,
        #/(.+)_conflict-\d{8}-\d{6}(\.[A-Za-z0-9]+)/#,
        #/(.+) \([1-9]\d*\)(\.[A-Za-z0-9]+)/#,
        #/(.+) [2-9]\d*(\.[A-Za-z0-9]+)/#,
        #/(.+)\.sync-conflict-\d{8}-\d{6}-[0-9A-Z]{7}(\.[A-Za-z0-9]+)/#,
    ]
}
