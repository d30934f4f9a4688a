import Foundation

/// Every regular file under `folder` (recursively) with its bytes, keyed by the path relative to
/// `folder`; only names ending in `suffix` when one is given. What tests compare to show that a
/// refused write changed no byte of a store.
public func folderSnapshot(_ folder: String, suffix: String = "") throws -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [:] }
    for case let relative as String in enumerator where relative.hasSuffix(suffix) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isDirectory),
              !isDirectory.boolValue else { continue }
        files[relative] = try Fixtures.contents(ofFileAtPath: folder + "/" + relative)
    }
    return files
}
