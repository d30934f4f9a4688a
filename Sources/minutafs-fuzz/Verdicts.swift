import AutomergeKit
import Foundation

/// `minutafs-fuzz verdicts [--save-to DIR] FILE...`: what `Document.load` makes of each file, in a
/// form `tools/fuzz-diff` compares with the reference's (`amref`). One block per file:
///
///     @ PATH
///     error MESSAGE                  (the file does not load), or:
///     json TYPED_JSON
///     head HASH                      (one line per head, sorted)
///     conflict LINE                  (one line per field holding concurrent values)
///     change LINE                    (one line per change, as `inspect --changes`)
///     .
///
/// With `--save-to DIR`, the full save of each file that loads is written to `DIR/BASENAME`.
/// Many files in one process: a differential run loads tens of thousands of them.
enum Verdicts {
    static func run(_ arguments: [String]) {
        var paths = arguments[...]
        var saveDirectory: String?
        if paths.first == "--save-to", paths.count >= 2 {
            saveDirectory = paths[paths.startIndex + 1]
            paths = paths.dropFirst(2)
        }
        var output = ""
        for path in paths {
            output += "@ \(path)\n"
            guard let data = FileManager.default.contents(atPath: path) else {
                output += "unreadable\n.\n"
                continue
            }
            do {
                var document = try Document.load([UInt8](data))
                output += "json \(document.typedJSON())\n"
                for head in document.heads.map(\.hexString).sorted() { output += "head \(head)\n" }
                for line in document.conflictLines() { output += "conflict \(line)\n" }
                for line in document.changeLines() { output += "change \(line)\n" }
                // A save refused (`unsavableValue`) writes no file: there are no bytes to compare.
                if let saveDirectory, let saved = try? document.save() {
                    let name = (path as NSString).lastPathComponent
                    _ = FileManager.default.createFile(atPath: "\(saveDirectory)/\(name)", contents: Data(saved))
                }
            } catch {
                output += "error \(error.kind) \(error.description.replacingOccurrences(of: "\n", with: " "))\n"
            }
            output += ".\n"
            if output.utf8.count > 1 << 16 {
                FileHandle.standardOutput.write(Data(output.utf8))
                output = ""
            }
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
