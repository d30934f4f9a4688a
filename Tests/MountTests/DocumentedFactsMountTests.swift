import Foundation
import Testing
import TestSupport

/// What the man page and README say about the files a mount makes and serves, checked against a real
/// mount: the folder the view cache is written to, the extended attributes a record file carries,
/// and `merge`'s exit status for a mounted store.
@Suite(.serialized)
struct DocumentedFactsMountTests {
    static func manPage() throws -> String {
        try String(contentsOfFile: Fixtures.packageRoot + "/docs/minutafs.1", encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
    }

    /// The text of the man page's section `name` (from `.SH name` to the next `.SH`).
    static func section(_ name: String, of page: String) -> String {
        guard let start = page.range(of: "\n.SH \(name)\n") else { return "" }
        let rest = page[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n.SH ")?.lowerBound ?? rest.endIndex)])
    }

    @Test("the man page's FILES section names the folder the view cache is really written to")
    func viewCacheFolder() throws {
        try withTemporaryDirectory { folder in
            let cache = folder + "/cache"
            let mounted = try MountedStore(in: folder, environment: ["XDG_CACHE_HOME": cache])
            _ = try FileManager.default.contentsOfDirectory(atPath: mounted.january)
            _ = try mounted.text(mounted.january + "/" + BadInput.recordName)
            #expect(mounted.unmount() == 0)
            let written = try #require(FileManager.default.subpaths(atPath: cache)).filter { !$0.hasSuffix("/") }
            let entries = written.filter { (try? FileManager.default.attributesOfItem(atPath: cache + "/" + $0)[.type] as? FileAttributeType) == .typeRegular }
            #expect(!entries.isEmpty, "the mount wrote no view cache entry under \(cache)")
            let folders = Set(entries.map { "$XDG_CACHE_HOME/" + ($0 as NSString).deletingLastPathComponent + "/" })
            let files = Self.section("FILES", of: try Self.manPage())
            for documented in folders {
                #expect(files.contains(documented), "FILES does not name \(documented)")
                let home = documented.replacingOccurrences(of: "$XDG_CACHE_HOME/", with: "~/.cache/")
                #expect(files.contains(home), "FILES does not name the default \(home)")
            }
        }
    }

    @Test("every extended attribute of a record file is named in the README and the man page")
    func extendedAttributes() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let record = mounted.january + "/" + BadInput.recordName
            let listed = try PythonScript.run("import os, sys\nprint('\\n'.join(os.listxattr(sys.argv[1])))", arguments: [record])
            let names = listed.split(separator: "\n").map(String.init)
            #expect(names.contains("user.minutafs.id"), "\(names)")
            let readme = try String(contentsOfFile: Fixtures.packageRoot + "/README.md", encoding: .utf8)
            let page = try Self.manPage()
            for name in names {
                #expect(readme.contains(name), "README.md does not name \(name)")
                #expect(page.contains(name), "the man page does not name \(name)")
            }
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("merge of a mounted store exits 1, as its --help's exit statuses say")
    func mergeOfMountedStore() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let merge = try MinutafsBinary.run(["merge", mounted.store])
            #expect(merge.status == 1, "\(merge.outputText)\(merge.errorText)")
            let help = try MinutafsBinary.run(["merge", "--help"]).outputText.replacingOccurrences(of: "\n", with: " ")
            let statuses = try #require(help.range(of: "Exit status:")).upperBound
            #expect(help[statuses...].prefix(400).contains("mounted"), "\(help)")
            #expect(mounted.unmount() == 0)
        }
    }
}

