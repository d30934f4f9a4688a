/// Names editors and tools give their temporary, swap and backup files. The mount keeps such
/// files itself (in memory) instead of writing them to the backing folder (SPEC section 4).
public enum ScratchName {
    public static func isScratch(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        if bytes.first == UInt8(ascii: ".") { return true }                 // .x.swp, rsync's .x.XXXXXX, .goutputstream-…, .#x
        if bytes.last == UInt8(ascii: "~") { return true }                  // vim, nano, emacs backups
        if bytes.count > 1, bytes.first == UInt8(ascii: "#"), bytes.last == UInt8(ascii: "#") { return true } // emacs autosave
        if !bytes.isEmpty, bytes.allSatisfy({ (48...57).contains($0) }) { return true }                      // vim's 4913 probe
        for suffix in [".swp", ".swx", ".swo", ".tmp", ".temp", ".part", ".crdownload", ".kate-swp", ".bak", ".orig"] where name.hasSuffix(suffix) {
            return true
        }
        if name.hasPrefix("sed"), bytes.count == 9 { return true }           // sed -i: sedXXXXXX
        if name.hasPrefix("tmp"), bytes.count >= 9 { return true }           // Python tempfile: tmpXXXXXXXX[suffix]
        return false
    }
}
